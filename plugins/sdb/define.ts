/**
 * The `sdb` plugin kind (Salt's `salt/sdb/*.py`, "simple database" drivers): a driver reads, and
 * may write and delete, one key of a store a profile in the config describes
 * (`mykv: { driver: yaml, files: [...] }`). `sdb://<profile>/<key>` values name them in config
 * files, pillar, `config.get` and the `sdb` execution module and runner.
 */
import type { UnitLogger } from '../../kernel/index.js';

/** A profile as the config holds it: `driver` plus the driver's own settings. */
export type SdbProfile = Readonly<Record<string, unknown>> & { readonly driver: string };

/** What a driver function receives besides the key. */
export interface SdbContext {
  /** The daemon's (or `salt-call`'s) options, flat as Salt's `__opts__`, read-only. */
  readonly opts: Readonly<Record<string, unknown>>;
  /** Logs without the values read: a driver never logs a value, only keys and failures. */
  readonly log: UnitLogger;
}

/**
 * One sdb driver. `get` is required; a driver without `set` or `delete` answers those calls as
 * Salt does for a driver module that lacks the function (`'<driver>.set' is not available.`).
 */
export interface SdbDriver {
  /** The name profiles give as `driver:` (`env`, `yaml`, `sqlite3`, `vault`, ...). */
  readonly name: string;
  /** One line shown by docs and `explain`. */
  readonly doc?: string;
  /** The value at `key`, or `null`/`undefined` when the store has none. */
  get(key: string, profile: SdbProfile, ctx: SdbContext): unknown;
  /** Stores `value` at `key`; returns what Salt's driver returns (the stored value, `true`, ...). */
  set?(key: string, value: unknown, profile: SdbProfile, ctx: SdbContext): unknown;
  /** Removes `key`; returns what Salt's driver returns (`true` when removed). */
  delete?(key: string, profile: SdbProfile, ctx: SdbContext): unknown;
}

/**
 * Types an sdb driver. A driver reaches a daemon two ways: as the default export of a file in
 * `<extension_modules>/sdb`, an `sdb_dirs` folder or an extension package's `tsalt.sdb` folder
 * (seen by every process, job processes and `salt-call` included), or registered by a plugin with
 * `api.kinds.register('sdb', driver)` (seen by the processes that apply plugins).
 *
 * @example
 * ```ts
 * import { defineSdb } from 'tsalt/sdb';
 * export default defineSdb({
 *   name: 'memo',
 *   get: (key, profile) => (profile.values as Record<string, unknown>)[key] ?? null,
 * });
 * ```
 */
export function defineSdb<D extends SdbDriver>(driver: D): D {
  return driver;
}

/** Whether `value` is a driver: a name Salt's loader accepts and a `get` function. */
export function isSdbDriver(value: unknown): value is SdbDriver {
  const v = value as { name?: unknown; get?: unknown; set?: unknown; delete?: unknown } | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.name === 'string' &&
    /^[A-Za-z_][A-Za-z0-9_]*$/.test(v.name) &&
    typeof v.get === 'function' &&
    (v.set === undefined || typeof v.set === 'function') &&
    (v.delete === undefined || typeof v.delete === 'function')
  );
}

declare module '../../kernel/kinds.js' {
  interface PluginKinds {
    sdb: SdbDriver;
  }
}
