/**
 * The minion-side matchers, one per target type (Salt's `salt/matchers/<type>_match.py`):
 * does this minion, with its id, grains and pillar, match the pattern? Invalid patterns throw
 * SALT_ERR_TARGET_INVALID; `matchesTarget` turns that into "not for me".
 */
import { type CompoundLeaf, evaluateCompound, parseCompound } from './compound.js';
import { globMatch } from './glob.js';
import { ipcidrMatch, parseIpTarget } from './ipcidr.js';
import type { Nodegroups } from './nodegroups.js';
import { pyReMatch } from './py-regex.js';
import { subdictMatch } from './subdict-match.js';
import { ENGINES } from './target-word.js';

export interface MinionMatchContext {
  /** The minion's grains. */
  grains?: Readonly<Record<string, unknown>>;
  /** The minion's pillar. */
  pillar?: unknown;
  /** Nodegroups known to the minion (normally none: the master expands them). */
  nodegroups?: Nodegroups;
  /** Matchers that take the place of a built-in one or add a target type (a minion's `matchers` units). */
  matchers?: ReadonlyMap<string, CustomMatch>;
}

/** A matcher a plugin supplies: one target type on this minion. */
export type CustomMatch = (tgt: unknown, id: string, ctx: MinionMatchContext, delimiter: string) => boolean;

/** Salt's `list_match`: a comma-separated string (compared as text) or a list of ids. */
export function listMatch(tgt: unknown, id: string): boolean {
  if (typeof tgt === 'string') {
    return tgt.includes(`,${id},`) || tgt.startsWith(`${id},`) || tgt.endsWith(`,${id}`) || tgt === id;
  }
  return Array.isArray(tgt) && tgt.includes(id);
}

function dataMatch(data: unknown, tgt: unknown, delimiter: string, regexMatch: boolean): boolean {
  // Salt: "Got insufficient arguments for ... match statement" when the delimiter is absent
  if (typeof tgt !== 'string' || !tgt.includes(delimiter)) return false;
  return subdictMatch(data ?? {}, tgt, { delimiter, regexMatch });
}

/** One matcher by target type; `delimiter` applies to grain and pillar types. */
export function matchType(
  tgtType: string,
  tgt: unknown,
  id: string,
  ctx: MinionMatchContext,
  delimiter = ':',
): boolean {
  const custom = ctx.matchers?.get(tgtType);
  if (custom) return custom(tgt, id, ctx, delimiter);
  switch (tgtType) {
    case 'glob':
      return typeof tgt === 'string' && globMatch(tgt, id);
    case 'pcre':
      return typeof tgt === 'string' && pyReMatch(tgt, id);
    case 'list':
      return listMatch(tgt, id);
    case 'grain':
      return dataMatch(ctx.grains, tgt, delimiter, false);
    case 'grain_pcre':
      return dataMatch(ctx.grains, tgt, delimiter, true);
    case 'pillar':
      return dataMatch(ctx.pillar, tgt, delimiter, false);
    case 'pillar_pcre':
      return dataMatch(ctx.pillar, tgt, delimiter, true);
    case 'ipcidr':
      return ipcidrMatch(parseIpTarget(tgt), ctx.grains);
    case 'compound':
    case 'nodegroup': {
      const tree =
        tgtType === 'compound'
          ? parseCompound(tgt, { nodegroups: ctx.nodegroups })
          : parseCompound(`N@${String(tgt)}`, { nodegroups: ctx.nodegroups });
      return evaluateCompound<boolean>(tree, {
        leaf: (leaf) => matchLeaf(leaf, id, ctx),
        and: (a, b) => a && b,
        or: (a, b) => a || b,
        not: (a) => !a,
      });
    }
    default:
      return false;
  }
}

/** One word of a compound target on this minion. */
export function matchLeaf(leaf: CompoundLeaf, id: string, ctx: MinionMatchContext): boolean {
  if (leaf.engine === undefined) return matchType('glob', leaf.pattern, id, ctx);
  return matchType(ENGINES[leaf.engine], leaf.pattern, id, ctx, leaf.delimiter ?? ':');
}
