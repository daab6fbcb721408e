/**
 * What a target may reach, for authorisation (no Salt counterpart; Salt's `CkMinions.auth_check`
 * trusts `check_minions`, which lets a `not` word drop a minion with no cached data even though
 * that minion may match on its own side). Each minion is matched three-valued: certainly (its
 * cached data matches), certainly not, or unknown (no cached data). `certain` holds the minions
 * that match whatever their unknown data is, `possible` those that may match: an ACL must allow
 * every possible minion, and grants only the minions its own target certainly matches.
 */
import type { ResolvedMasterConfig } from '../../../kernel/index.js';
import {
  type CheckContext,
  type CompoundLeaf,
  checkMinions,
  ENGINES,
  evaluateCompound,
  nodegroupComp,
  parseCompound,
  targetCheckInput,
} from '../../../kernel/services.js';

export interface TargetBounds {
  /** Minions the target matches whatever their unknown data holds. */
  certain: ReadonlySet<string>;
  /** Minions the target may match: `certain` plus those whose data is unknown and may match. */
  possible: ReadonlySet<string>;
}

function leafBounds(pattern: unknown, tgtType: string, ctx: CheckContext): TargetBounds {
  return {
    certain: new Set(checkMinions(pattern, tgtType, { ...ctx, greedy: false }).minions),
    possible: new Set(checkMinions(pattern, tgtType, { ...ctx, greedy: true }).minions),
  };
}

const inBoth = (a: ReadonlySet<string>, b: ReadonlySet<string>) => new Set([...a].filter((x) => b.has(x)));
const inEither = (a: ReadonlySet<string>, b: ReadonlySet<string>) => new Set([...a, ...b]);

function compoundBounds(tgt: unknown, ctx: CheckContext): TargetBounds {
  const tree = parseCompound(tgt, { nodegroups: ctx.nodegroups, nodegroupsFile: ctx.nodegroupsFile });
  const all = ctx.accepted;
  const leaf = (l: CompoundLeaf): TargetBounds =>
    l.engine === undefined
      ? leafBounds(l.pattern, 'glob', ctx)
      : // inside a compound target each word carries its own delimiter (G|@a|b)
        leafBounds(l.pattern, ENGINES[l.engine], { ...ctx, delimiter: l.delimiter ?? ':' });
  return evaluateCompound<TargetBounds>(tree, {
    leaf,
    and: (a, b) => ({ certain: inBoth(a.certain, b.certain), possible: inBoth(a.possible, b.possible) }),
    or: (a, b) => ({ certain: inEither(a.certain, b.certain), possible: inEither(a.possible, b.possible) }),
    // not: certainly matched when the operand cannot match, possibly when it is not certain
    not: (a) => ({
      certain: new Set(all.filter((id) => !a.possible.has(id))),
      possible: new Set(all.filter((id) => !a.certain.has(id))),
    }),
  });
}

/** The certain and possible minions of `tgt` (throws SALT_ERR_TARGET_INVALID as checkMinions does). */
export function targetBounds(tgt: unknown, tgtType: string, ctx: CheckContext): TargetBounds {
  const type = tgtType || 'glob';
  if (type === 'compound') return compoundBounds(tgt, ctx);
  if (type === 'nodegroup' && typeof tgt === 'string')
    return compoundBounds(nodegroupComp(String(tgt), ctx.nodegroups, ctx.nodegroupsFile), ctx);
  return leafBounds(tgt, type, ctx);
}

/**
 * The certain and possible minions of a target as this master sees it (its accepted keys, its
 * minion data cache, its nodegroups).
 */
export async function expectedTargetBounds(
  config: ResolvedMasterConfig,
  tgt: unknown,
  tgtType: string,
): Promise<TargetBounds> {
  const input = await targetCheckInput(config, tgt, tgtType);
  return targetBounds(input.tgt, input.tgtType, input.ctx);
}
