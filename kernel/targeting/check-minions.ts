/**
 * The master's view of a target: which accepted minions are expected to answer (Salt's
 * `CkMinions.check_minions`). Ids come from the accepted keys; grain, pillar and ipcidr targets
 * use the minion data cache, and with `greedy` (Salt's default) a minion with no cached data is
 * expected too: it decides for itself. Invalid targets throw SALT_ERR_TARGET_INVALID.
 */
import { SALT_ERR_TARGET_INVALID } from '../errors.js';
import { type CompoundLeaf, evaluateCompound, parseCompound } from './compound.js';
import type { MinionData } from './data-cache.js';
import { globMatch } from './glob.js';
import { ipcidrMatch, parseIpTarget } from './ipcidr.js';
import { compoundWords, type Nodegroups, nodegroupComp } from './nodegroups.js';
import { pythonRegExp } from './py-regex.js';
import { subdictMatch } from './subdict-match.js';
import { ENGINES } from './target-word.js';

export interface CheckResult {
  minions: string[];
  missing: string[];
}

export interface CheckContext {
  /** Accepted minion ids (the `minions` keys). */
  accepted: readonly string[];
  /** The minion data cache: id → cached grains and pillar; absent ids have no data. */
  data?: ReadonlyMap<string, MinionData>;
  /** False when `minion_data_cache` is off: data-based targets then match every minion. */
  cacheEnabled?: boolean;
  /** The client's `delimiter` (grain and pillar targets; default `:`). */
  delimiter?: string;
  /** Expect minions with no cached data (Salt's default, true). */
  greedy?: boolean;
  /** Pillar targets (`pillar`, `I@`) compare values exactly, without globbing (the mine's `pillar_exact`). */
  pillarExact?: boolean;
  nodegroups?: Nodegroups;
  /** Where the nodegroups are configured, for the "unavailable" error. */
  nodegroupsFile?: string;
}

const DATA_TYPES = new Set(['grain', 'grain_pcre', 'pillar', 'pillar_pcre', 'ipcidr', 'nodegroup']);
const DATA_WORD = /^(?:[GPIJ][^@]?|S|N)@/;

/** Whether the expected set of this target depends on the minion data cache. */
export function needsMinionData(tgtType: string, tgt?: unknown): boolean {
  if (DATA_TYPES.has(tgtType)) return true;
  if (tgtType !== 'compound') return false;
  try {
    return compoundWords(tgt).some((w) => DATA_WORD.test(w));
  } catch {
    return true;
  }
}

/** Splits a `list` target given as an array or a comma-separated string. */
export function listTarget(tgt: string | readonly string[]): string[] {
  const items = typeof tgt === 'string' ? tgt.split(',') : [...tgt];
  return items.map((s) => String(s).trim()).filter(Boolean);
}

function listMinions(tgt: unknown, ctx: CheckContext, ignoreMissing: boolean): CheckResult {
  if (typeof tgt !== 'string' && !Array.isArray(tgt))
    throw new SALT_ERR_TARGET_INVALID('a list target must be ids separated by commas');
  const wanted = listTarget(tgt as string | string[]);
  const known = new Set(ctx.accepted);
  return {
    minions: wanted.filter((id) => known.has(id)),
    missing: ignoreMissing ? [] : wanted.filter((id) => !known.has(id)),
  };
}

function requireString(tgt: unknown, what: string): string {
  if (typeof tgt !== 'string' || tgt === '')
    throw new SALT_ERR_TARGET_INVALID(`a ${what} target must be a non-empty string`);
  return tgt;
}

/**
 * Salt's `_check_cache_minions`: filter on cached data. A minion with no cache entry is kept when
 * greedy; one whose entry lacks the grains or pillar does not match (Salt 3006's `data.p` bank).
 */
function cacheMinions(ctx: CheckContext, test: (data: MinionData) => boolean): string[] {
  const greedy = ctx.greedy ?? true;
  if (ctx.cacheEnabled === false) return greedy ? [...ctx.accepted] : [];
  return ctx.accepted.filter((id) => {
    const data = ctx.data?.get(id);
    return data ? test(data) : greedy;
  });
}

function dataMinions(
  tgt: unknown,
  ctx: CheckContext,
  source: 'grains' | 'pillar',
  regexMatch: boolean,
  delimiter: string,
  what: string,
): string[] {
  const expr = requireString(tgt, what);
  if (!expr.includes(delimiter))
    throw new SALT_ERR_TARGET_INVALID(
      `a ${what} target needs a key and a value separated by "${delimiter}" (e.g. os${delimiter}Debian), got "${expr}"`,
    );
  const exactMatch = source === 'pillar' && !regexMatch && ctx.pillarExact === true;
  return cacheMinions(ctx, (data) => subdictMatch(data[source], expr, { delimiter, regexMatch, exactMatch }));
}

function typeMinions(
  tgtType: string,
  tgt: unknown,
  ctx: CheckContext,
  delimiter: string,
  negated = false,
): CheckResult {
  switch (tgtType) {
    case 'glob': {
      const pattern = requireString(tgt, 'glob');
      return { minions: ctx.accepted.filter((id) => globMatch(pattern, id)), missing: [] };
    }
    case 'list':
      return listMinions(tgt, ctx, negated);
    case 'pcre': {
      const re = pythonRegExp(requireString(tgt, 'pcre'));
      return {
        minions: ctx.accepted.filter((id) => {
          re.lastIndex = 0;
          return re.test(id);
        }),
        missing: [],
      };
    }
    case 'grain':
      return { minions: dataMinions(tgt, ctx, 'grains', false, delimiter, 'grain'), missing: [] };
    case 'grain_pcre':
      return { minions: dataMinions(tgt, ctx, 'grains', true, delimiter, 'grain_pcre'), missing: [] };
    case 'pillar':
      return { minions: dataMinions(tgt, ctx, 'pillar', false, delimiter, 'pillar'), missing: [] };
    case 'pillar_pcre':
      return { minions: dataMinions(tgt, ctx, 'pillar', true, delimiter, 'pillar_pcre'), missing: [] };
    case 'ipcidr': {
      const target = parseIpTarget(tgt);
      return {
        minions: cacheMinions(ctx, (data) => ipcidrMatch(target, data.grains)),
        missing: [],
      };
    }
    case 'nodegroup':
      return compoundMinions(
        nodegroupComp(requireString(tgt, 'nodegroup'), ctx.nodegroups, ctx.nodegroupsFile),
        ctx,
      );
    case 'compound':
      return compoundMinions(tgt, ctx);
    default:
      throw new SALT_ERR_TARGET_INVALID(
        `unknown target type "${tgtType}": expected glob, pcre, list, grain, grain_pcre, pillar, pillar_pcre, ipcidr, nodegroup or compound`,
      );
  }
}

/** Salt's `_check_compound_minions`: set algebra over each word's expected minions. */
function compoundMinions(tgt: unknown, ctx: CheckContext): CheckResult {
  const tree = parseCompound(tgt, { nodegroups: ctx.nodegroups, nodegroupsFile: ctx.nodegroupsFile });
  const missing: string[] = [];
  const all = new Set(ctx.accepted);
  const leaf = (l: CompoundLeaf): Set<string> => {
    if (l.engine === undefined) return new Set(typeMinions('glob', l.pattern, ctx, ':').minions);
    // inside a compound target each word carries its own delimiter (G|@a|b); the client's is not used
    const r = typeMinions(ENGINES[l.engine], l.pattern, ctx, l.delimiter ?? ':', l.negated);
    missing.push(...r.missing);
    return new Set(r.minions);
  };
  const result = evaluateCompound<Set<string>>(tree, {
    leaf,
    and: (a, b) => new Set([...a].filter((x) => b.has(x))),
    or: (a, b) => new Set([...a, ...b]),
    not: (a) => new Set([...all].filter((x) => !a.has(x))),
  });
  return { minions: ctx.accepted.filter((id) => result.has(id)), missing: [...new Set(missing)] };
}

/** The minions expected to answer `tgt` of type `tgtType`, and listed ids that are not accepted. */
export function checkMinions(tgt: unknown, tgtType: string, ctx: CheckContext): CheckResult {
  const delimiter = ctx.delimiter || ':';
  return typeMinions(tgtType || 'glob', tgt, ctx, delimiter);
}
