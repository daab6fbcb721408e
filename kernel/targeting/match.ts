/**
 * The minion side of targeting (Salt's `Minion._target_load`): does a publish address this
 * minion? Every target type is evaluated with the minion's own id, grains and pillar; an
 * unknown type or an invalid expression answers false (the caller logs it), never throws.
 */
import { type MinionMatchContext, matchType } from './matchers.js';

export interface TargetMatchContext extends MinionMatchContext {
  /** The publish load's `delimiter` (present only when it is not `:`). */
  delimiter?: unknown;
}

const DELIMITED = new Set(['grain', 'grain_pcre', 'pillar', 'pillar_pcre']);

export function matchesTarget(
  id: string,
  tgt: unknown,
  tgtType: unknown,
  ctx: TargetMatchContext = {},
): boolean {
  const type = typeof tgtType === 'string' && tgtType ? tgtType : 'glob';
  const delimiter =
    DELIMITED.has(type) && typeof ctx.delimiter === 'string' && ctx.delimiter ? ctx.delimiter : ':';
  try {
    return matchType(type, tgt, id, ctx, delimiter);
  } catch {
    return false;
  }
}
