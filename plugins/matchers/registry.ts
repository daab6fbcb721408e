/**
 * This process's matchers: the minion's main process sets them at start and after a module sync
 * (minion/matchers.ts); a job process or `salt-call` loads them on the first `match.*` call. One
 * table per process, so the publish intake and the inline `match` functions agree.
 */
import type { UnitLogger } from '../../kernel/index.js';
import type { CustomMatch } from '../../kernel/services.js';
import { loadMatchers } from './load.js';

let current: ReadonlyMap<string, CustomMatch> | undefined;
let loading: Promise<ReadonlyMap<string, CustomMatch>> | undefined;

/** Replaces this process's table (the minion, after loading). */
export function setProcessMatchers(table: ReadonlyMap<string, CustomMatch>): void {
  current = table;
  loading = undefined;
}

/** The table now, or `undefined` when nothing loaded one in this process yet. */
export function processMatchers(): ReadonlyMap<string, CustomMatch> | undefined {
  return current;
}

/** The table, loaded from a minion's options (`extension_modules`, `matchers_dirs`, `extensions`) once. */
export function matchersFromOpts(
  opts: Readonly<Record<string, unknown>>,
  log: UnitLogger,
): Promise<ReadonlyMap<string, CustomMatch>> {
  if (current) return Promise.resolve(current);
  const list = (v: unknown) => (Array.isArray(v) ? v.map(String) : []);
  loading ??= loadMatchers({
    extensionModules: String(opts.extension_modules ?? ''),
    dirs: list(opts.matchers_dirs),
    packages: list(opts.extensions),
    log,
  })
    .catch((err: unknown) => {
      log.warn({ err: (err as Error).message }, 'custom matchers not loaded');
      return new Map<string, CustomMatch>();
    })
    .then((table) => {
      current ??= table;
      return current;
    });
  return loading;
}
