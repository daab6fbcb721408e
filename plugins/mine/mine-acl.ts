/**
 * Who may read what from the mine. The master's side is the `mine_get` option (Salt's
 * `RemoteFuncs._mine_get`): minion-id regex → function regexes, Python's `re.match`, so a
 * pattern matches at the start of the name; when it is set, what no entry allows is refused.
 * The minion's side is the entry a minion stores with `allow_tgt` (Salt's `salt.utils.mine`):
 * `{__data__: value, __saltmine_acl__: 1, allow_tgt, allow_tgt_type}`.
 */
import { pyReMatch } from '../../kernel/util.js';

/** Salt's `MINE_ITEM_ACL_ID`, `MINE_ITEM_ACL_VERSION` and `MINE_ITEM_ACL_DATA`. */
export const MINE_ACL_ID = '__saltmine_acl__';
export const MINE_ACL_VERSION = 1;
export const MINE_ACL_DATA = '__data__';

export type MineGetAcl = Readonly<Record<string, readonly string[]>>;

/** `re.match`, an invalid pattern matching nothing (reported through `onBadPattern`). */
function reMatch(pattern: string, text: string, onBadPattern: (p: string) => void): boolean {
  try {
    return pyReMatch(pattern, text);
  } catch {
    onBadPattern(pattern);
    return false;
  }
}

/**
 * The functions of `functions` that minion `id` may read under the `mine_get` ACL, in order;
 * every one of them when no ACL is configured (`acl` null).
 */
export function allowedFunctions(
  acl: MineGetAcl | null,
  id: string,
  functions: readonly string[],
  onBadPattern: (pattern: string) => void = () => {},
): string[] {
  if (acl === null) return [...functions];
  const perms = new Set<string>();
  for (const [match, funs] of Object.entries(acl)) {
    if (reMatch(match, id, onBadPattern)) for (const f of funs) perms.add(f);
  }
  return functions.filter((fun) => [...perms].some((perm) => reMatch(perm, fun, onBadPattern)));
}

export interface AclEntry {
  /** The value the minion stored. */
  data: unknown;
  allowTgt?: unknown;
  allowTgtType?: string;
}

/** An entry stored with a minion-side ACL, unwrapped; undefined for a plain value. */
export function aclEntry(entry: unknown): AclEntry | undefined {
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return undefined;
  const e = entry as Record<string, unknown>;
  if (!(MINE_ACL_ID in e)) return undefined;
  const out: AclEntry = { data: e[MINE_ACL_DATA] };
  if ('allow_tgt' in e) {
    out.allowTgt = e.allow_tgt;
    out.allowTgtType = typeof e.allow_tgt_type === 'string' ? e.allow_tgt_type : 'glob';
  }
  return out;
}

/** Salt's `wrap_acl_structure`: the stored form of a value with a minion-side ACL (falsy parts left out). */
export function wrapAcl(data: unknown, allowTgt?: unknown, allowTgtType?: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = { [MINE_ACL_DATA]: data, [MINE_ACL_ID]: MINE_ACL_VERSION };
  if (allowTgt) {
    out.allow_tgt = allowTgt;
    if (allowTgtType) out.allow_tgt_type = allowTgtType;
  }
  return out;
}
