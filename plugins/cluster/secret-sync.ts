/**
 * The secrets every master of a cluster must hold alike for `master_type: str` behind a TCP load
 * balancer (Salt 3007's cluster): a minion signed in on one master is then served by any other.
 * - The AES key (`cachedir/.aes`), which encrypts publishes and which a sign-in hands out: a
 *   master that starts takes the cluster's key; a rotation made on any master (the
 *   `publish_session` age, a key deleted with `rotate_aes_key`) is recorded and the others take
 *   it, then ask their publisher and request server to read it again (`onAesAdopted`).
 * - The minions' session keys (`cachedir/sessions/<id>`, Salt's `ReqServerChannel.session_key`),
 *   which encrypt a minion's requests and their replies, with their age (the file's mtime, which
 *   `publish_session` counts from).
 * Each is sealed under the cluster key in the store (secret-box.ts). Latest writer wins: two
 * masters rotating at once end on the one key recorded last, and a minion holding the other signs
 * in again when a publish does not decrypt, as after any rotation.
 */
import { mkdir, readdir, readFile, rename, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isValidMinionId } from '../../kernel/util.js';
import { type ClusterStore, PUT_BATCH } from './cluster-store.js';
import type { FolderChanges } from './folder-changes.js';
import { openSecret, sealSecret } from './secret-box.js';

const AES = 'aes';
const SESSION = 'session/';

export interface SecretSyncOptions {
  cachedir: string;
  store: ClusterStore;
  /** This master's id, recorded with what it writes. */
  origin: string;
  cluster: string;
  /** The cluster key (cluster-key.ts). */
  key: Buffer;
  /** This master's `.aes` now holds a key another master made. */
  onAesAdopted(): void;
  /** A row that does not open under the cluster key (another key, tampered). */
  onRefused(name: string): void;
  /** What changed in `sessions/` (a watch); without it every round stats every session file. */
  sessionChanges?: FolderChanges;
}

/** The generation field of an `.aes` file's JSON, or undefined when it has none. */
function generationOf(text: Buffer | string): string | undefined {
  try {
    const g = (JSON.parse(text.toString()) as { generation?: unknown }).generation;
    return typeof g === 'string' ? g : undefined;
  } catch {
    return undefined;
  }
}

/** A file of the master's sessions folder that is a minion's key (not a writer's temporary file). */
function isSessionFile(name: string): boolean {
  return isValidMinionId(name) && !name.startsWith('.') && !name.endsWith('.tmp');
}

/** A session row's key and the mtime its file had; an empty key when the row is not one. */
function parseSession(plain: Buffer): { key: string; mtimeMs: number } {
  try {
    const { key, mtimeMs } = JSON.parse(plain.toString()) as { key?: unknown; mtimeMs?: unknown };
    if (typeof key === 'string' && /^[A-Za-z0-9+/=]+$/.test(key) && typeof mtimeMs === 'number')
      return { key, mtimeMs };
  } catch {
    // not JSON: not one
  }
  return { key: '', mtimeMs: 0 };
}

async function writeAtomic(path: string, data: Buffer | string): Promise<void> {
  const tmp = join(path, '..', `.cluster.${process.pid}.${Date.now()}.tmp`);
  await writeFile(tmp, data, { mode: 0o600 });
  await rename(tmp, path);
}

export class SecretSync {
  #version = 0;
  /** The AES key generation this master holds as last seen or written by this sync. */
  #aes: string | undefined;
  /** session id → the mtime its file had when this sync last wrote, found or recorded it. */
  readonly #seen = new Map<string, number>();
  /** Before the first round every row applies, this master's own too (it restarted: the store is the truth). */
  #started = false;

  constructor(private readonly o: SecretSyncOptions) {}

  get #aesPath(): string {
    return join(this.o.cachedir, '.aes');
  }

  #sessionPath(id: string): string {
    return join(this.o.cachedir, 'sessions', id);
  }

  async round(): Promise<{ applied: number; recorded: number }> {
    let applied = 0;
    for (;;) {
      const rows = await this.o.store.secretsSince(this.#version);
      if (rows.length === 0) break;
      for (const row of rows) {
        this.#version = Math.max(this.#version, row.version);
        if (row.origin === this.o.origin && this.#started) continue;
        const plain = openSecret(this.o.key, this.o.cluster, row.name, row.data);
        if (!plain) {
          this.o.onRefused(row.name);
          continue;
        }
        if (await this.#apply(row.name, plain)) applied += 1;
      }
    }
    this.#started = true;
    return { applied, recorded: (await this.#recordAes()) + (await this.#recordSessions()) };
  }

  /** Writes one secret into place; false when this master had it already. */
  async #apply(name: string, plain: Buffer): Promise<boolean> {
    if (name === AES) {
      const generation = generationOf(plain);
      if (generation === undefined) return false;
      const mine = generationOf(await readFile(this.#aesPath).catch(() => ''));
      this.#aes = generation;
      if (mine === generation) return false;
      await writeAtomic(this.#aesPath, plain);
      this.o.onAesAdopted();
      return true;
    }
    const id = name.slice(SESSION.length);
    if (!name.startsWith(SESSION) || !isSessionFile(id)) return false;
    const { key, mtimeMs } = parseSession(plain);
    if (!key) return false;
    const path = this.#sessionPath(id);
    const had = await readFile(path, 'utf8').catch(() => undefined);
    const mtime = await stat(path).then(
      (s) => s.mtimeMs,
      () => undefined,
    );
    if (had?.trim() === key) {
      if (mtime !== undefined) this.#seen.set(id, mtime);
      return false;
    }
    // a key made here after the row's and not recorded yet (a sign-in here while the row was on
    // its way): the newer key stays, and this round records it. Overwritten, it was lost: the
    // minion holding it was refused everywhere and signed in again.
    if (this.#started && mtime !== undefined && mtime > mtimeMs && this.#seen.get(id) !== mtime) return false;
    await mkdir(join(this.o.cachedir, 'sessions'), { recursive: true, mode: 0o700 });
    await writeAtomic(path, key);
    // the key's age goes with it: publish_session counts from when it was made
    const when = new Date(Math.min(mtimeMs, Date.now()));
    await utimes(path, when, when);
    this.#seen.set(id, (await stat(path)).mtimeMs);
    return true;
  }

  async #recordAes(): Promise<number> {
    const text = await readFile(this.#aesPath).catch(() => undefined);
    const generation = text && generationOf(text);
    if (!text || !generation || generation === this.#aes) return 0;
    await this.o.store.putSecret(AES, sealSecret(this.o.key, this.o.cluster, AES, text), this.o.origin);
    this.#aes = generation;
    return 1;
  }

  async #recordSessions(): Promise<number> {
    const changes = this.o.sessionChanges?.take() ?? { full: true };
    const names = changes.full
      ? await readdir(join(this.o.cachedir, 'sessions')).catch(() => [] as string[])
      : changes.names;
    const found: { id: string; mtimeMs: number; name: string; data: Buffer }[] = [];
    for (const id of new Set(names)) {
      if (!isSessionFile(id)) continue;
      const path = this.#sessionPath(id);
      const mtimeMs = await stat(path).then(
        (s) => s.mtimeMs,
        () => undefined,
      );
      if (mtimeMs === undefined || this.#seen.get(id) === mtimeMs) continue;
      const key = (await readFile(path, 'utf8').catch(() => '')).trim();
      if (!key) continue;
      const name = `${SESSION}${id}`;
      const plain = Buffer.from(JSON.stringify({ key, mtimeMs }));
      found.push({ id, mtimeMs, name, data: sealSecret(this.o.key, this.o.cluster, name, plain) });
    }
    for (let i = 0; i < found.length; i += PUT_BATCH) {
      const batch = found.slice(i, i + PUT_BATCH);
      await this.o.store.putSecrets(batch, this.o.origin);
      for (const { id, mtimeMs } of batch) this.#seen.set(id, mtimeMs);
    }
    return found.length;
  }
}
