/**
 * The lowstate clients of salt-api (Salt's `NetapiClient`): `local`, `local_async`,
 * `local_batch`, `local_subset`, `runner`, `runner_async`, `wheel`, `wheel_async`; `ssh`
 * answers "not supported". Each chunk is checked against `netapi_enable_clients` and the
 * caller's eauth ACL before anything reaches the master.
 */
import { runBatchClient } from './batch-client.js';
import type { Chunk } from './body.js';
import { NETAPI_ERR_BAD_LOWSTATE, NETAPI_ERR_MASTER, NETAPI_ERR_NOT_SUPPORTED } from './errors.js';
import { askTargets, gatherReturns, shapeReturns } from './gather.js';
import {
  argOf,
  type ClientEnv,
  checkLocal,
  checkSpec,
  funOf,
  type Identity,
  kwargOf,
  type LocalCall,
  localCall,
  RESERVED,
  timeoutOf,
} from './local-call.js';
import type { PublishResult } from './master-client.js';

async function publishChecked(env: ClientEnv, who: Identity, call: LocalCall): Promise<PublishResult> {
  return env.link.publish({
    tgt: call.tgt,
    fun: call.fun,
    arg: call.arg,
    tgtType: call.tgtType,
    ret: call.ret,
    user: who.user,
  });
}

/** `{jid, minions}` of an async publish, `{}` when nothing matched (as salt-api answers). */
function asyncAnswer(pub: PublishResult): Record<string, unknown> {
  if (!pub.jid) return {};
  return { jid: pub.jid, minions: pub.minions };
}

async function runLocal(env: ClientEnv, who: Identity, chunk: Chunk): Promise<unknown[]> {
  const call = await checkLocal(env, who, localCall(chunk));
  const pub = await publishChecked(env, who, call);
  if (!pub.jid) return [{}];
  const rets = await gatherReturns(env, { ...pub, jid: pub.jid }, timeoutOf(env, chunk), who.user);
  return [shapeReturns(rets, chunk.full_return === true)];
}

/**
 * Salt's `cmd_subset`: asks the target for `sys.list_functions`, then runs the function on
 * at most `subset` (Salt 3006's name; `sub` before it; default 3) of the minions that have
 * it, picked at random. One entry: the returns of the chosen minions.
 */
async function runSubset(env: ClientEnv, who: Identity, chunk: Chunk): Promise<unknown[]> {
  const call = await checkLocal(env, who, localCall(chunk));
  const raw = chunk.subset ?? chunk.sub;
  const subset = raw === undefined ? 3 : Number(raw);
  if (!Number.isInteger(subset) || subset < 1)
    throw new NETAPI_ERR_BAD_LOWSTATE('"subset" must be a positive integer');
  const timeout = timeoutOf(env, chunk);
  const listed = await askTargets(env, call, 'sys.list_functions', timeout, who.user);
  const pool = [...listed.keys()];
  for (let i = pool.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [pool[i], pool[j]] = [pool[j] as string, pool[i] as string];
  }
  const chosen: string[] = [];
  for (const id of pool) {
    const funs = listed.get(id)?.return;
    if (Array.isArray(funs) && funs.includes(call.fun)) chosen.push(id);
    if (chosen.length >= subset) break;
  }
  if (chosen.length === 0) return [{}];
  const pub = await publishChecked(env, who, { ...call, tgt: chosen, tgtType: 'list' });
  if (!pub.jid) return [{}];
  const rets = await gatherReturns(env, { ...pub, jid: pub.jid }, timeout, who.user);
  return [shapeReturns(rets, chunk.full_return === true)];
}

function runnerArgs(chunk: Chunk): { fun: string; arg: unknown[]; kwarg: Record<string, unknown> } {
  const fun = funOf(chunk);
  const kwarg = kwargOf(chunk);
  // Salt's `_reformat_low`: every other key of the chunk is a keyword of the function
  for (const [k, v] of Object.entries(chunk)) if (!RESERVED.has(k) && !k.startsWith('__')) kwarg[k] = v;
  return { fun, arg: argOf(chunk), kwarg };
}

async function runRunner(env: ClientEnv, who: Identity, chunk: Chunk, wait: boolean): Promise<unknown[]> {
  const { fun, arg, kwarg } = runnerArgs(chunk);
  checkSpec(who, fun, arg, kwarg, 'runner');
  const started = await env.link.runner(fun, arg, kwarg, who.user);
  if (!wait) return [started];
  const t = Number(chunk.timeout);
  const limitMs =
    (Number.isFinite(t) && t > 0 ? Math.min(t, env.opts.sync_timeout_max) : env.opts.sync_timeout_max) * 1000;
  const ret = await new Promise<Record<string, unknown> | undefined>((resolve) => {
    const timer = setTimeout(() => {
      stop();
      resolve(undefined);
    }, limitMs);
    const stop = env.link.watchJob(started.jid, (ev) => {
      if (ev.tag !== `salt/run/${started.jid}/ret`) return;
      clearTimeout(timer);
      stop();
      resolve(ev.data);
    });
  });
  if (!ret) throw new NETAPI_ERR_MASTER(`runner ${fun} did not return in time; its jid is ${started.jid}`);
  return [chunk.full_return === true ? ret : ret.return];
}

async function runWheel(env: ClientEnv, who: Identity, chunk: Chunk, wait: boolean): Promise<unknown[]> {
  const { fun, arg, kwarg } = runnerArgs(chunk);
  checkSpec(who, fun, arg, kwarg, 'wheel');
  const res = await env.link.wheel(fun, arg, kwarg, who.user);
  if (!wait) return [{ tag: res.tag, jid: res.data.jid }];
  return [res];
}

/** Runs one lowstate chunk for `who`; resolves with the entries it adds to `return`. */
export async function runChunk(
  env: ClientEnv,
  who: Identity,
  chunk: Chunk,
  client: string,
): Promise<unknown[]> {
  switch (client) {
    case 'local':
      return runLocal(env, who, chunk);
    case 'local_async': {
      const call = await checkLocal(env, who, localCall(chunk));
      return [asyncAnswer(await publishChecked(env, who, call))];
    }
    case 'local_subset':
      return runSubset(env, who, chunk);
    case 'local_batch':
      return runBatchClient(env, who, chunk);
    case 'runner':
      return runRunner(env, who, chunk, true);
    case 'runner_async':
      return runRunner(env, who, chunk, false);
    case 'wheel':
      return runWheel(env, who, chunk, true);
    case 'wheel_async':
      return runWheel(env, who, chunk, false);
    case 'ssh':
      throw new NETAPI_ERR_NOT_SUPPORTED('the ssh client (salt-ssh) is not supported by tsalt');
    default:
      throw new NETAPI_ERR_BAD_LOWSTATE(`unknown client ${JSON.stringify(client)}`);
  }
}
