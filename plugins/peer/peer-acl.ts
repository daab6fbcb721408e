/**
 * Who may publish what (Salt's `AESFuncs.__verify_minion_publish` and the `peer_run` check of
 * `masterapi.minion_runner`): the lists under every `peer`/`peer_run` key whose regex matches
 * the minion id, checked with Salt's eauth ACL grammar (function regexes, or `{target:
 * [functions]}` entries). A publish of `publish.*` is always refused (no publish loops), and a
 * pillar target must match no more minions with globbing than without (`publish_validate`).
 */
import type { ResolvedMasterConfig } from '../../kernel/index.js';
import { checkMinions, targetCheckInput } from '../../kernel/services.js';
import { pyReMatch } from '../../kernel/util.js';
import { authCheck, expectedTargetBounds } from '../netapi/auth/index.js';

const isMap = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Python `re.match`, an invalid pattern matching nothing. */
function reMatch(pattern: string, text: string): boolean {
  try {
    return pyReMatch(pattern, text);
  } catch {
    return false;
  }
}

/** The entries of every list in `map` whose key (a minion-id regex) matches `id`; non-lists count for nothing. */
export function peerPerms(map: Readonly<Record<string, unknown>>, id: string): unknown[] {
  const perms: unknown[] = [];
  for (const [pattern, entries] of Object.entries(map))
    if (Array.isArray(entries) && reMatch(pattern, id)) perms.push(...entries);
  return perms;
}

/** Salt's `peer_run` check: a string entry of the minion's lists that matches the runner function. */
export function runnerAllowed(peerRun: Readonly<Record<string, unknown>>, id: string, fun: string): boolean {
  return peerPerms(peerRun, id).some((p) => typeof p === 'string' && reMatch(p, fun));
}

/** A publish as Salt checks it: `fun` split at commas into a compound job, each arg split at blanks. */
export interface PeerCall {
  fun: string | string[];
  arg: unknown[];
  tgt: string | string[];
  tgtType: string;
}

/**
 * Whether a pillar (or compound) target matches more minions with globbing than with exact
 * values (Salt's `publish_validate`): then it is refused, as a minion could reach minions by
 * pillar patterns it cannot see.
 */
async function pillarGlobbing(config: ResolvedMasterConfig, tgt: unknown, tgtType: string): Promise<boolean> {
  const type = tgtType.toLowerCase();
  if (type !== 'pillar' && type !== 'pillar_pcre' && type !== 'compound') return false;
  const input = await targetCheckInput(config, tgt, type);
  const all = checkMinions(input.tgt, input.tgtType, input.ctx).minions;
  const exactType = input.tgtType === 'pillar_pcre' ? 'pillar' : input.tgtType;
  const exact = new Set(checkMinions(input.tgt, exactType, { ...input.ctx, pillarExact: true }).minions);
  return all.some((m) => !exact.has(m));
}

/** Salt's `__verify_minion_publish` for a load whose keys are checked: may minion `id` publish `call`? */
export async function publishAllowed(
  config: ResolvedMasterConfig,
  peer: Readonly<Record<string, unknown>>,
  id: string,
  call: PeerCall,
): Promise<boolean> {
  const funs = typeof call.fun === 'string' ? [call.fun] : call.fun;
  if (funs.some((f) => f.startsWith('publish.'))) return false;
  try {
    if (await pillarGlobbing(config, call.tgt, call.tgtType)) return false;
    return await authCheck(peerPerms(peer, id), call.fun, call.arg, call.tgt, call.tgtType, (t, tt) =>
      expectedTargetBounds(config, t, tt),
    );
  } catch {
    return false;
  }
}

/** Salt's comma form: `fun` `a,b` with `arg` `['x y', '']` is the compound job `[a, b]` with `[['x', 'y'], []]`. */
export function splitCompound(
  fun: string,
  arg: readonly unknown[],
): { fun: string | string[]; arg: unknown[] } {
  if (!fun.includes(',')) return { fun, arg: [...arg] };
  return {
    fun: fun.split(','),
    arg: arg.map((a) => (typeof a === 'string' ? a.split(/\s+/).filter(Boolean) : a)),
  };
}

export { isMap };
