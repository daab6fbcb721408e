/**
 * Salt's rules for setting process environment variables (`environ.setval`/`setenv`), over any
 * env object: a job's `process.env`, or the minion's own on an `environ_setenv` event.
 */
import { isMapping } from './_traverse.js';

type Env = Record<string, string | undefined>;

/**
 * `setval`: a string sets, False sets '' or, with `falseUnsets`, removes the key. Returns the
 * value set, null for a removed key, false for any other value (nothing changes).
 */
export function setEnvValue(
  env: Env,
  name: string,
  val: unknown,
  falseUnsets: boolean,
): string | null | false {
  if (val === false) {
    if (falseUnsets) {
      delete env[name];
      return null;
    }
    val = '';
  }
  if (typeof val !== 'string') return false;
  env[name] = val;
  return val;
}

/**
 * `setenv`: with `clearAll` every key not named is unset first, then each named key is set.
 * Returns each key's `setval` result, or false when `environ` is not a map or a value is neither
 * a string nor False (keys before that value are already set, as in Salt).
 */
export function setEnvValues(
  env: Env,
  environ: unknown,
  falseUnsets: boolean,
  clearAll: boolean,
): Record<string, string | null | false> | false {
  if (!isMapping(environ)) return false;
  const ret: Record<string, string | null | false> = {};
  if (clearAll)
    for (const key of Object.keys(env))
      if (!Object.hasOwn(environ, key)) ret[key] = setEnvValue(env, key, false, falseUnsets);
  for (const [key, val] of Object.entries(environ)) {
    if (typeof val !== 'string' && val !== false) return false;
    ret[key] = setEnvValue(env, key, val, falseUnsets);
  }
  return ret;
}
