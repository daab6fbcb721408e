/**
 * The minion data cache shared through the cluster store (Salt 3007 shares `cachedir` on a
 * shared filesystem): each round writes here the entries other masters recorded since the last
 * round (`<cachedir>/minions/<id>/data.p`, 0600, replaced atomically), then records the entries
 * that changed here (a minion that reported its grains to this master). So grain and pillar
 * targets resolve on any master to the minions of all. An entry is told changed by its mtime.
 */
import { mkdir, readdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isValidMinionId } from '../../kernel/util.js';
import type { ClusterStore } from './cluster-store.js';

export class DataSync {
  #version = 0;
  /** id → the mtime of its data.p when this master last wrote or recorded it. */
  readonly #seen = new Map<string, number>();

  constructor(
    private readonly cachedir: string,
    private readonly store: ClusterStore,
    private readonly origin: string,
  ) {}

  #path(id: string): string {
    return join(this.cachedir, 'minions', id, 'data.p');
  }

  async round(): Promise<{ applied: number; recorded: number }> {
    let applied = 0;
    for (;;) {
      const rows = await this.store.dataSince(this.#version);
      if (rows.length === 0) break;
      for (const row of rows) {
        this.#version = Math.max(this.#version, row.version);
        if (row.origin === this.origin || !isValidMinionId(row.id)) continue;
        const dir = join(this.cachedir, 'minions', row.id);
        await mkdir(dir, { recursive: true, mode: 0o700 });
        const tmp = join(dir, `.data.p.cluster.${process.pid}`);
        await writeFile(tmp, row.data, { mode: 0o600 });
        await rename(tmp, this.#path(row.id));
        this.#seen.set(row.id, (await stat(this.#path(row.id))).mtimeMs);
        applied += 1;
      }
    }
    let recorded = 0;
    const ids = await readdir(join(this.cachedir, 'minions')).catch(() => [] as string[]);
    for (const id of ids) {
      const mtime = await stat(this.#path(id)).then(
        (s) => s.mtimeMs,
        () => undefined,
      );
      if (mtime === undefined || this.#seen.get(id) === mtime) continue;
      const data = await readFile(this.#path(id)).catch(() => undefined);
      if (!data) continue;
      await this.store.putData(id, data, this.origin);
      this.#seen.set(id, mtime);
      recorded += 1;
    }
    return { applied, recorded };
  }
}
