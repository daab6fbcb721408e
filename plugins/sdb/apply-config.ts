/**
 * Salt's `apply_sdb` (`salt/config/__init__.py`): every `sdb://` string in a loaded config, at
 * any depth of mappings and lists, replaced by the value it names, once, when a daemon or
 * `salt-call` loads its config. A reference whose profile is missing stays as written (Salt's
 * non-strict `sdb_get`). The config comes back deeply frozen, the same object when it holds no
 * reference, and the values read are never logged.
 */
import { isDict } from '../../kernel/util.js';
import type { SdbContext } from './define.js';

type Get = (uri: string, ctx: SdbContext) => Promise<unknown>;

/** An `sdb://` reference (sdb.ts has the same test; this file stays light for the CLIs). */
const isSdbUri = (value: unknown): value is string => typeof value === 'string' && value.startsWith('sdb://');

/** Whether `value` holds an `sdb://` string anywhere (the cheap test before any driver loads). */
export function holdsSdbUri(value: unknown): boolean {
  if (isSdbUri(value)) return true;
  if (Array.isArray(value)) return value.some(holdsSdbUri);
  return isDict(value) && Object.values(value).some(holdsSdbUri);
}

async function resolveValue(value: unknown, ctx: SdbContext, get: Get): Promise<unknown> {
  if (isSdbUri(value)) return get(value, ctx);
  if (!holdsSdbUri(value)) return value;
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (const item of value) out.push(item === null ? item : await resolveValue(item, ctx, get));
    return Object.freeze(out);
  }
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value as Record<string, unknown>))
    out[key] = item === null ? item : await resolveValue(item, ctx, get);
  return Object.freeze(out);
}

function freezeDeep<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) freezeDeep(item);
  }
  return value;
}

/**
 * `config` with its `sdb://` references resolved, looked up in `config` itself (profiles are
 * top-level options, kept by tsalt in `extra`). A driver that fails stops the load, naming the
 * reference's profile, not its value.
 */
export async function applySdb<C extends object>(config: C, log: SdbContext['log']): Promise<C> {
  if (!holdsSdbUri(config)) return config;
  const { sdbGet: get } = await import('./sdb.js');
  const ctx: SdbContext = { opts: config as Readonly<Record<string, unknown>>, log };
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(config)) {
    out[key] = item === null || key === 'plugins' ? item : freezeDeep(await resolveValue(item, ctx, get));
  }
  return Object.freeze(out) as C;
}
