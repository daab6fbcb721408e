/**
 * The `fileserver.backends` plugin kind (Salt's `salt/fileserver/*.py` modules chosen by
 * `fileserver_backend`): a backend tells, per saltenv, which directories on the master's disk
 * hold its files and at which mount point; the file server (fileserver.ts) finds, lists, hashes
 * and serves from them. `roots` and `gitfs` are built in; a plugin adds one with
 * `api.kinds.register('fileserver.backends', { name, create(opts, log) })`.
 */
import type { FileServerOptions } from './options.js';

/** Where backends and the file server log: a pino logger or a unit's logger. */
export interface FileServerLog {
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** A directory that serves a saltenv: its files appear under `mount` (`''`: at the top). */
export interface ServedRoot {
  readonly dir: string;
  readonly mount: string;
}

/** What `salt-run fileserver.update` reports for a backend: Salt's `True`/`False` or details. */
export type BackendUpdateResult = boolean | Readonly<Record<string, unknown>>;

/** A running backend. */
export interface FileServerBackend {
  /** The saltenvs it serves. */
  envs(): Promise<string[]>;
  /** The roots of `saltenv`, searched in order; `[]` when it does not serve it. */
  roots(saltenv: string): Promise<ServedRoot[]>;
  /**
   * Brings the backend's copy up to date (gitfs fetches); roots has nothing to do. `ids`: only
   * those of {@link updateIntervals}' keys.
   */
  update?(ids?: readonly string[]): Promise<BackendUpdateResult>;
  /**
   * Seconds between updates of each part (gitfs: each remote's `update_interval`); without it
   * the whole backend updates every `gitfs_update_interval` (Salt's `update_intervals`).
   */
  updateIntervals?(): Readonly<Record<string, number>>;
  /**
   * Masterless (`file_client: local`): brings in only what was never fetched (Salt's minion
   * fetches new gitfs remotes when it starts), since no master process keeps them fresh.
   */
  fetchNew?(): Promise<void>;
  /** Removes what the backend keeps in the master's cachedir; the paths removed. */
  clearCache?(): Promise<string[]>;
}

/** A backend as plugins register it. */
export interface FileServerBackendDef {
  /** The name `fileserver_backend` lists (`roots`, `gitfs`, ...). */
  readonly name: string;
  /** Other names `fileserver_backend` may use for it (Salt accepts `git` for `gitfs`). */
  readonly aliases?: readonly string[];
  create(opts: FileServerOptions, log: FileServerLog): FileServerBackend;
}

declare module '../../kernel/kinds.js' {
  interface PluginKinds {
    'fileserver.backends': FileServerBackendDef;
  }
}
