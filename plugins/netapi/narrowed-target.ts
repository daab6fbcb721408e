/**
 * The target a call is published with once a target-restricted ACL entry allowed it: only the
 * minions the master authorised, so a minion whose own match is wider than the master's view
 * (no cached grains, a `not` word) cannot run it. Salt's peer publish narrows the same way
 * (`tgt_type: list`); stock Salt minions accept both forms below.
 */

/** The compound engine letter of the target types a compound word can carry. */
const WORD_ENGINE: Readonly<Record<string, string>> = {
  grain: 'G@',
  grain_pcre: 'P@',
  pillar: 'I@',
  pillar_pcre: 'J@',
  ipcidr: 'S@',
};

export interface Narrowed {
  tgt: string | string[];
  tgtType: string;
}

/**
 * Id targets (glob, pcre, list) become the list of authorised ids. A data target keeps its own
 * test on the minion, and with it: `L@<ids> and ( <target> )`, so a listed minion whose data
 * does not match still does not run it. Anything else becomes the list.
 */
export function narrowedTarget(tgt: unknown, tgtType: string, ids: readonly string[]): Narrowed {
  const list: Narrowed = { tgt: [...ids], tgtType: 'list' };
  if (ids.length === 0) return list;
  let expr: string | undefined;
  if (tgtType === 'compound') expr = Array.isArray(tgt) ? tgt.map(String).join(' ') : String(tgt);
  else if (WORD_ENGINE[tgtType] && typeof tgt === 'string' && !/\s/.test(tgt))
    expr = `${WORD_ENGINE[tgtType]}${tgt}`;
  if (expr === undefined) return list;
  return { tgt: `L@${ids.join(',')} and ( ${expr} )`, tgtType: 'compound' };
}
