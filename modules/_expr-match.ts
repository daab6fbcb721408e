/**
 * Salt 3006's `salt.utils.stringutils.expr_match(line, expr)`: true when `expr` matches `line`
 * as an fnmatch glob (so also when the two are equal), else when Python's
 * `re.match(rf"\A{expr}\Z", line)` does. The expression is not grouped, exactly as Salt formats
 * it: `a|b` matches a line that starts with `a`, or that is `b` (`re.match` tries at the start
 * only). A bad regular expression matches nothing.
 */
import { globMatch, pyReMatch } from '../kernel/util.js';

export function exprMatch(line: string, expr: string): boolean {
  if (globMatch(expr, line)) return true;
  try {
    return pyReMatch(`\\A${expr}\\Z`, line);
  } catch {
    return false;
  }
}
