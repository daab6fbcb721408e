/**
 * The minion data cache shared through the cluster store (Salt 3007 shares `cachedir` on a
 * shared filesystem): each round writes here the files other masters recorded since the last
 * round (`<cachedir>/minions/<id>/data.p` and `mine.p`, 0600, replaced atomically), then records
 * the files that changed here (a minion that reported its grains or sent its mine to this
 * master). So grain and pillar targets resolve, and `mine.get` answers, on any master for the
 * minions of all. A file is told changed by its mtime; with a watch of `minions/`
 * (folder-changes.ts) a round stats only the files the watch saw change, not every minion's.
 */
import { mkdir, readdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isValidMinionId } from '../../kernel/util.js';
import type { ClusterStore } from './cluster-store.js';
import type { FolderChanges } from './folder-changes.js';

/** The files of a minion's cache folder that are shared. */
export const SHARED_FILES = ['data.p', 'mine.p'] as const;

export class DataSync {
  #version = 0;
  /** `<id>/<file>` → its mtime when this master last wrote or recorded it. */
  readonly #seen = new Map<string, number>();

  constructor(
    private readonly cachedir: string,
    private readonly store: ClusterStore,
    private readonly origin: string,
    private readonly changes?: FolderChanges,
  ) {}

  /** The `[id, file]` pairs that may have changed since the last round. */
  async #candidates(): Promise<[string, string][]> {
    const changes = this.changes?.take() ?? { full: true };
    const shared: readonly string[] = SHARED_FILES;
    if (changes.full) {
      const ids = await readdir(join(this.cachedir, 'minions')).catch(() => [] as string[]);
      return ids.flatMap((id) => SHARED_FILES.map((name): [string, string] => [id, name]));
    }
    const pairs = new Map<string, [string, string]>();
    for (const changed of changes.names) {
      const [id = '', name = ''] = changed.split('/');
      // `<id>/`: a new minion folder, whose files came before its watch
      for (const file of name ? [name] : shared)
        if (shared.includes(file)) pairs.set(`${id}/${file}`, [id, file]);
    }
    return [...pairs.values()];
  }

  #path(id: string, name: string): string {
    return join(this.cachedir, 'minions', id, name);
  }

  async round(): Promise<{ applied: number; recorded: number }> {
    let applied = 0;
    for (;;) {
      const rows = await this.store.dataSince(this.#version);
      if (rows.length === 0) break;
      for (const row of rows) {
        this.#version = Math.max(this.#version, row.version);
        const shared = (SHARED_FILES as readonly string[]).includes(row.name);
        if (row.origin === this.origin || !shared || !isValidMinionId(row.id)) continue;
        const dir = join(this.cachedir, 'minions', row.id);
        await mkdir(dir, { recursive: true, mode: 0o700 });
        const tmp = join(dir, `.${row.name}.cluster.${process.pid}`);
        const path = this.#path(row.id, row.name);
        await writeFile(tmp, row.data, { mode: 0o600 });
        await rename(tmp, path);
        this.#seen.set(`${row.id}/${row.name}`, (await stat(path)).mtimeMs);
        applied += 1;
      }
    }
    let recorded = 0;
    for (const [id, name] of await this.#candidates()) {
      if (!isValidMinionId(id)) continue;
      const path = this.#path(id, name);
      const mtime = await stat(path).then(
        (s) => s.mtimeMs,
        () => undefined,
      );
      if (mtime === undefined || this.#seen.get(`${id}/${name}`) === mtime) continue;
      const data = await readFile(path).catch(() => undefined);
      if (!data) continue;
      await this.store.putData(id, name, data, this.origin);
      this.#seen.set(`${id}/${name}`, mtime);
      recorded += 1;
    }
    return { applied, recorded };
  }
}
