/**
 * Which saltenvs a gitfs remote exposes (Salt's `GitProvider.env_is_exposed` over
 * `salt.utils.stringutils.check_whitelist_blacklist` and `expr_match`): each entry of
 * `saltenv_whitelist` / `saltenv_blacklist` matches a saltenv when it equals it, matches it as
 * an fnmatch glob, or matches the whole of it as a regular expression. A blacklisted saltenv is
 * hidden; with a whitelist, only whitelisted ones are shown.
 */
import { exprMatch } from '../../modules/_expr-match.js';

export { exprMatch };

/** Whether `env` passes the white- and blacklist (empty lists let everything through). */
export function envExposed(env: string, whitelist: readonly string[], blacklist: readonly string[]): boolean {
  if (blacklist.some((e) => exprMatch(env, e))) return false;
  return whitelist.length === 0 || whitelist.some((e) => exprMatch(env, e));
}
