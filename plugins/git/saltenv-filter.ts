/**
 * Which saltenvs a gitfs remote exposes (Salt's `GitProvider.env_is_exposed` over
 * `salt.utils.stringutils.check_whitelist_blacklist` and `expr_match`): each entry of
 * `saltenv_whitelist` / `saltenv_blacklist` matches a saltenv when it equals it, matches it as
 * an fnmatch glob, or matches the whole of it as a regular expression. A blacklisted saltenv is
 * hidden; with a whitelist, only whitelisted ones are shown.
 */
import { globMatch, pyReMatch } from '../../kernel/util.js';

/** Salt's `expr_match`: a glob, else a regular expression over the whole value. */
export function exprMatch(value: string, expr: string): boolean {
  if (globMatch(expr, value)) return true;
  try {
    return pyReMatch(`\\A${expr}\\Z`, value);
  } catch {
    return false;
  }
}

/** Whether `env` passes the white- and blacklist (empty lists let everything through). */
export function envExposed(env: string, whitelist: readonly string[], blacklist: readonly string[]): boolean {
  if (blacklist.some((e) => exprMatch(env, e))) return false;
  return whitelist.length === 0 || whitelist.some((e) => exprMatch(env, e));
}
