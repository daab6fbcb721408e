/**
 * The `sdb.*` functions a render on the master or a masterless pillar compile offers its
 * templates (`{{ salt['sdb.get']('sdb://mykv/pass') }}`), read with the given options' profiles.
 */
import type { UnitLogger } from '../../kernel/index.js';
import { pyTruthy } from '../../kernel/util.js';
import { type SaltFunctions, saltFunctionsFrom } from '../renderers/index.js';
import { SDB_HASH_CHARS, sdbDelete, sdbGet, sdbGetOrSetHash, sdbSet } from './sdb.js';

/** `args[i]`, else the keyword `name`, else `fallback` (Python's binding, enough for these four). */
function arg(
  args: readonly unknown[],
  kwargs: Readonly<Record<string, unknown>>,
  i: number,
  name: string,
  fallback?: unknown,
): unknown {
  if (i < args.length) return args[i];
  return Object.hasOwn(kwargs, name) ? kwargs[name] : fallback;
}

/** The logger a pillar compile holds (error, warn, debug with an object first). */
export interface SdbLogSink {
  error(obj: Record<string, unknown>, msg: string): void;
  warn(obj: Record<string, unknown>, msg: string): void;
  debug(obj: Record<string, unknown>, msg: string): void;
}

function unitLogger(sink: SdbLogSink): UnitLogger {
  const at =
    (f: (obj: Record<string, unknown>, msg: string) => void) =>
    (obj: object | string, msg?: string): void =>
      typeof obj === 'string' ? f({}, obj) : f(obj as Record<string, unknown>, msg ?? '');
  const debug = at((o, m) => sink.debug(o, m));
  return {
    trace: () => {},
    debug,
    info: debug,
    warn: at((o, m) => sink.warn(o, m)),
    error: at((o, m) => sink.error(o, m)),
  };
}

/** `sdb.get`, `sdb.set`, `sdb.delete` and `sdb.get_or_set_hash` with the profiles of `opts`. */
export function sdbSaltFunctions(opts: Readonly<Record<string, unknown>>, sink: SdbLogSink): SaltFunctions {
  const ctx = { opts, log: unitLogger(sink) };
  return saltFunctionsFrom({
    'sdb.get': (a, k) => sdbGet(arg(a, k, 0, 'uri'), ctx, pyTruthy(arg(a, k, 1, 'strict', false))),
    'sdb.set': (a, k) => sdbSet(arg(a, k, 0, 'uri'), arg(a, k, 1, 'value'), ctx),
    'sdb.delete': (a, k) => sdbDelete(arg(a, k, 0, 'uri'), ctx),
    'sdb.get_or_set_hash': (a, k) =>
      sdbGetOrSetHash(
        arg(a, k, 0, 'uri'),
        ctx,
        Number(arg(a, k, 1, 'length', 8)),
        String(arg(a, k, 2, 'chars', SDB_HASH_CHARS)),
      ),
  });
}
