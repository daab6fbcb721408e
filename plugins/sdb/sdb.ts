/**
 * Salt's `salt/utils/sdb.py`: `sdb://<profile>/<key>` resolved through the profile the options
 * (or, failing that, the pillar) hold under `<profile>`, and the driver it names. A value that
 * is not such a URI comes back as it is (`get`) or as `false` (`set`, `delete`), as in Salt;
 * `strict` turns those cases into Salt's invocation errors. Values read are never logged.
 */
import { randomInt } from 'node:crypto';
import { SALT_ERR_INVOCATION } from '../../kernel/index.js';
import { isDict } from '../../kernel/util.js';
import type { SdbContext, SdbProfile } from './define.js';
import { SALT_ERR_SDB_UNAVAILABLE } from './errors.js';
import { findSdbDriver, optionOf } from './find-driver.js';

const PREFIX = 'sdb://';

/** The characters `get_or_set_hash` draws from by default (Salt's). */
export const SDB_HASH_CHARS = 'abcdefghijklmnopqrstuvwxyz0123456789!@#$%^&*(-_=+)';

/** Whether `value` is an `sdb://` reference (the test `apply_sdb` makes). */
export function isSdbUri(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith(PREFIX);
}

type Parsed = { profileName: string; key: string } | { bad: 'scheme' | 'profile' };

function parse(uri: unknown): Parsed {
  if (!isSdbUri(uri)) return { bad: 'scheme' };
  const slash = uri.indexOf('/', PREFIX.length);
  if (slash === -1 || slash === uri.length - 1) return { bad: 'profile' };
  return { profileName: uri.slice(PREFIX.length, slash), key: uri.slice(slash + 1) };
}

/** The profile named `name`: an option, else a pillar key; `undefined` without a `driver`. */
export function sdbProfile(opts: Readonly<Record<string, unknown>>, name: string): SdbProfile | undefined {
  let profile = optionOf(opts, name);
  if (!profile || (isDict(profile) && Object.keys(profile).length === 0)) {
    const pillar = optionOf(opts, 'pillar');
    profile = isDict(pillar) ? pillar[name] : undefined;
  }
  if (!isDict(profile) || !Object.hasOwn(profile, 'driver')) return undefined;
  return { ...profile, driver: String(profile.driver) };
}

type Fun = 'get' | 'set' | 'delete';

async function driverCall(
  profile: SdbProfile,
  fun: Fun,
  ctx: SdbContext,
): Promise<(...args: unknown[]) => unknown> {
  const name = `${profile.driver}.${fun}`;
  const driver = await findSdbDriver(profile.driver, ctx.opts, ctx.log);
  if (!driver) throw new SALT_ERR_SDB_UNAVAILABLE(name, `no sdb driver is named '${profile.driver}'`);
  const f = driver[fun];
  if (!f) throw new SALT_ERR_SDB_UNAVAILABLE(name, `the ${profile.driver} sdb driver has no ${fun} function`);
  return f.bind(driver) as (...args: unknown[]) => unknown;
}

/** Salt's `sdb_get`: the value at the URI, or the URI itself when it names no profile (unless `strict`). */
export async function sdbGet(uri: unknown, ctx: SdbContext, strict = false): Promise<unknown> {
  const p = parse(uri);
  if ('bad' in p) {
    if (!strict) return uri;
    throw new SALT_ERR_INVOCATION(
      p.bad === 'scheme'
        ? 'SDB uri must start with "sdb://"'
        : 'SDB uri must have a profile name as a first part of the uri before the /',
    );
  }
  const profile = sdbProfile(ctx.opts, p.profileName);
  if (!profile) {
    if (!strict) return uri;
    throw new SALT_ERR_INVOCATION(`SDB profile "${p.profileName}" wasnt found in the minion configuration`);
  }
  ctx.log.debug({ profile: p.profileName, driver: profile.driver }, 'sdb get');
  return (await (await driverCall(profile, 'get', ctx))(p.key, profile, ctx)) ?? null;
}

async function write(
  uri: unknown,
  fun: 'set' | 'delete',
  ctx: SdbContext,
  value?: unknown,
): Promise<unknown> {
  const p = parse(uri);
  if ('bad' in p) return false;
  const profile = sdbProfile(ctx.opts, p.profileName);
  if (!profile) return false;
  ctx.log.debug({ profile: p.profileName, driver: profile.driver }, `sdb ${fun}`);
  const call = await driverCall(profile, fun, ctx);
  const out = fun === 'set' ? call(p.key, value, profile, ctx) : call(p.key, profile, ctx);
  return (await out) ?? null;
}

/** Salt's `sdb_set`: the driver's answer, or `false` for a URI that names no profile. */
export function sdbSet(uri: unknown, value: unknown, ctx: SdbContext): Promise<unknown> {
  return write(uri, 'set', ctx, value);
}

/** Salt's `sdb_delete`: the driver's answer, or `false` for a URI that names no profile. */
export function sdbDelete(uri: unknown, ctx: SdbContext): Promise<unknown> {
  return write(uri, 'delete', ctx);
}

/**
 * Salt's `sdb_get_or_set_hash`: the stored value, or a new random string of `length` characters
 * from `chars`, stored and returned, when there is none.
 */
export async function sdbGetOrSetHash(
  uri: unknown,
  ctx: SdbContext,
  length = 8,
  chars = SDB_HASH_CHARS,
): Promise<unknown> {
  if (!isSdbUri(uri)) return false;
  const got = await sdbGet(uri, ctx);
  if (got !== null && got !== undefined) return got;
  const pool = [...chars];
  if (pool.length === 0 && length > 0) throw new SALT_ERR_INVOCATION('Cannot choose from an empty sequence');
  let value = '';
  for (let i = 0; i < length; i++) value += pool[randomInt(pool.length)];
  await sdbSet(uri, value, ctx);
  return value;
}
