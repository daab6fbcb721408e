/**
 * A Python `re` pattern as a JS RegExp for `re.search` (the common syntax; `(?P<n>...)` named
 * groups and `(?i)`-style leading flags translated).
 */
import { SALT_ERR_INVOCATION } from '../kernel/index.js';

export function pythonRe(pattern: string): RegExp {
  let flags = '';
  let body = pattern.replace(/\(\?P</g, '(?<').replace(/\(\?P=(\w+)\)/g, '\\k<$1>');
  const lead = /^\(\?([aiLmsux]+)\)/.exec(body);
  if (lead) {
    for (const f of lead[1]!) if ('ims'.includes(f)) flags += f;
    body = body.slice(lead[0].length);
  }
  try {
    return new RegExp(body, flags);
  } catch (err) {
    throw new SALT_ERR_INVOCATION(`invalid regular expression: ${(err as Error).message}`);
  }
}
