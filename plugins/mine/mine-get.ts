/**
 * Reading the mine (Salt's `RemoteFuncs._mine_get`, shared by the `_mine_get` command and the
 * `mine.get` runner): the functions the `mine_get` ACL lets the asker read, of the minions the
 * target names (not greedy: a minion with no cached grains or pillar does not match a grain or
 * pillar target; pillar values compare exactly), each entry filtered by the minion-side ACL
 * its owner stored with it. `{minion: data}` for one function, `{function: {minion: data}}`
 * for a list or a comma-separated string of several.
 */
import { checkMinions, type TargetingConfig, targetCheckInput } from '../../kernel/services.js';
import { isValidMinionId } from '../../kernel/util.js';
import { aclEntry, allowedFunctions, type MineGetAcl } from './mine-acl.js';
import { readMine } from './mine-bank.js';
import { addResult, requestedFunctions } from './mine-shape.js';

export interface MineGetEnv {
  readonly targeting: TargetingConfig;
  /** The `mine_get` option (null: no ACL). */
  readonly acl: MineGetAcl | null;
  /** Told of each `mine_get` pattern that is not a valid regular expression. */
  onBadPattern?(pattern: string): void;
}

/** How many mine files are read at once. */
const READ_BATCH = 256;

/** Salt's target type of a mine read: `expr_form` for old clients; pillar matching is exact. */
function mineTargetType(load: Readonly<Record<string, unknown>>): { type: string; pillarExact: boolean } {
  const raw = load.expr_form !== undefined && !('tgt_type' in load) ? load.expr_form : load.tgt_type;
  const type = typeof raw === 'string' && raw ? raw.toLowerCase() : 'glob';
  return { type, pillarExact: type === 'pillar' || type === 'compound' };
}

async function readAll(cachedir: string, ids: readonly string[]) {
  const out: Array<Record<string, unknown> | undefined> = [];
  for (let i = 0; i < ids.length; i += READ_BATCH) {
    out.push(...(await Promise.all(ids.slice(i, i + READ_BATCH).map((id) => readMine(cachedir, id)))));
  }
  return out;
}

/**
 * The mine data `load` (`id`, `tgt`, `fun`, `tgt_type`) may read; `{}` for a load without
 * them, a `fun` of the wrong type, an invalid asking id, or nothing allowed. Throws
 * SALT_ERR_TARGET_INVALID for a target that does not parse.
 */
export async function gatherMine(
  env: MineGetEnv,
  load: Readonly<Record<string, unknown>>,
): Promise<Record<string, unknown>> {
  if (!('id' in load && 'tgt' in load && 'fun' in load)) return {};
  const asked = requestedFunctions(load.fun);
  if (!asked) return {};
  const id = load.id;
  if (!isValidMinionId(id)) return {};
  const functions = allowedFunctions(env.acl, id, asked.functions, env.onBadPattern);
  if (functions.length === 0) return {};
  const { type, pillarExact } = mineTargetType(load);
  const input = await targetCheckInput(env.targeting, load.tgt, type);
  const { minions } = checkMinions(input.tgt, input.tgtType, { ...input.ctx, greedy: false, pillarExact });
  const banks = await readAll(env.targeting.cachedir, minions);
  const allowCache = new Map<string, Set<string>>();
  const allowed = async (tgt: unknown, tgtType: string): Promise<Set<string>> => {
    const key = JSON.stringify([tgt, tgtType]);
    let hit = allowCache.get(key);
    if (!hit) {
      try {
        const t = await targetCheckInput(env.targeting, tgt, tgtType);
        hit = new Set(checkMinions(t.tgt, t.tgtType, t.ctx).minions);
      } catch {
        // an allow_tgt that does not parse allows nobody
        hit = new Set();
      }
      allowCache.set(key, hit);
    }
    return hit;
  };
  const ret: Record<string, unknown> = {};
  for (const [i, minion] of minions.entries()) {
    const bank = banks[i];
    if (!bank) continue;
    for (const fun of functions) {
      if (!Object.hasOwn(bank, fun)) continue;
      let value = bank[fun];
      const acl = aclEntry(value);
      if (acl) {
        value = acl.data;
        if (acl.allowTgt !== undefined) {
          const who = await allowed(acl.allowTgt, acl.allowTgtType ?? 'glob');
          if (!who.has(id)) continue;
        }
      }
      addResult(ret, asked, fun, minion, value);
    }
  }
  return ret;
}
