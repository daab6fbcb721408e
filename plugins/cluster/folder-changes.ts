/**
 * Which files of a folder changed since the sync round last asked, told by `fs.watch` (inotify),
 * so that a round stats the files that changed rather than every file (10,000 sessions, 20,000
 * minion data files). `depth: 2` watches the folder's subfolders too (`minions/<id>/data.p`) and
 * reports `<id>/<file>`. The watch is a hint, not the truth: a round asks for a full scan when the
 * folder is not watched yet (it does not exist before the first sign-in; watching is tried again
 * at each round), when a watch failed, and every `fullEveryMs` as a safety net (a kernel queue that
 * overflowed drops events silently).
 */
import { type FSWatcher, readdirSync, watch } from 'node:fs';
import { join } from 'node:path';

export interface FolderChangesOptions {
  depth: 1 | 2;
  /** A full scan at least this often. */
  fullEveryMs: number;
  /** Called on every change seen (the caller runs a round soon). */
  onChange?(): void;
}

/** What changed: everything may have (scan it all), or these names (`file`, or `sub/file` at depth 2). */
export type Changes = { full: true } | { full: false; names: ReadonlySet<string> };

export class FolderChanges {
  readonly #watchers = new Map<string, FSWatcher>();
  #names = new Set<string>();
  #full = true;
  #lastFull = 0;
  #closed = false;

  constructor(
    readonly dir: string,
    private readonly o: FolderChangesOptions,
  ) {}

  /** The changes since the last call; a full scan is due when this says so. */
  take(now = Date.now()): Changes {
    if (!this.#watchers.has('')) this.#watchRoot();
    if (this.#full || !this.#watchers.has('') || now - this.#lastFull >= this.o.fullEveryMs) {
      this.#full = false;
      this.#names = new Set();
      this.#lastFull = now;
      // subfolders made while a watch was missing are watched from now on
      if (this.o.depth === 2 && this.#watchers.has('')) this.#watchSubs();
      return { full: true };
    }
    const names = this.#names;
    this.#names = new Set();
    return { full: false, names };
  }

  /** Watches the folder; a watch made now starts with a full scan (what came before it is unseen). */
  #watchRoot(): void {
    const made = this.#watch('', this.dir, (name) => {
      if (this.o.depth === 1) return this.#changed(name);
      // a subfolder made, removed or made again: watched afresh
      this.#watchers.get(name)?.close();
      this.#watchers.delete(name);
      this.#watchSub(name, true);
    });
    if (made) this.#full = true;
  }

  #watchSubs(): void {
    let subs: string[];
    try {
      subs = readdirSync(this.dir);
    } catch {
      return;
    }
    // the full scan under way covers their files
    for (const sub of subs) this.#watchSub(sub, false);
  }

  /** `fresh`: a subfolder just made, whose files may have come before its watch. */
  #watchSub(sub: string, fresh: boolean): void {
    if (this.#watchers.has(sub) || sub.startsWith('.')) return;
    if (this.#watch(sub, join(this.dir, sub), (name) => this.#changed(`${sub}/${name}`)) && fresh)
      this.#changed(`${sub}/`);
  }

  /** Watches `path` under `key`; false when it cannot be watched (gone, or not a folder). */
  #watch(key: string, path: string, seen: (name: string) => void): boolean {
    if (this.#closed) return false;
    try {
      const w = watch(path, (_event, name) => {
        if (typeof name === 'string' && name) seen(name);
        else this.#lost();
      });
      w.on('error', () => {
        w.close();
        this.#watchers.delete(key);
        // a subfolder removed is no loss; the folder itself: scan until it is watched again
        if (key === '') this.#lost();
      });
      this.#watchers.set(key, w);
      return true;
    } catch {
      return false;
    }
  }

  #changed(name: string): void {
    this.#names.add(name);
    this.o.onChange?.();
  }

  /** An event without a name, or the folder's watch failed: the next round scans everything. */
  #lost(): void {
    this.#full = true;
    this.o.onChange?.();
  }

  close(): void {
    this.#closed = true;
    for (const w of this.#watchers.values()) w.close();
    this.#watchers.clear();
  }
}
