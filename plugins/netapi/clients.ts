/**
 * The lowstate clients of salt-api (Salt's `NetapiClient`): `local`, `local_async`,
 * `local_batch`, `local_subset`, `runner`, `runner_async`, `wheel`, `wheel_async`; `ssh`
 * answers "not supported". Each chunk is checked against `netapi_enable_clients` and the
 * caller's eauth ACL before anything reaches the master.
 */
import { batchSize } from '../../kernel/client/batch.js';
import type { ResolvedMasterConfig } from '../../kernel/config/index.js';
import type { JobReturn } from '../../kernel/jobs/types.js';
import { readPresence } from '../../kernel/master/presence.js';
import { expectedMinions } from '../../kernel/targeting/expected-minions.js';
import { authCheck, specCheck, type TargetResolver } from './auth/acl.js';
import type { Chunk } from './body.js';
import { ALL_CLIENTS, type NetapiOptions } from './config.js';
import {
  NETAPI_ERR_BAD_LOWSTATE,
  NETAPI_ERR_CLIENT_DISABLED,
  NETAPI_ERR_FORBIDDEN,
  NETAPI_ERR_MASTER,
  NETAPI_ERR_NOT_SUPPORTED,
} from './errors.js';
import type { MasterLink, PublishResult } from './master-link.js';

/** Who is calling: the eauth user behind a token (or inline credentials). */
export interface Identity {
  user: string;
  eauth: string;
  groups: string[];
  authList: unknown[];
  token?: string;
}

export interface ClientEnv {
  link: MasterLink;
  config: ResolvedMasterConfig;
  opts: NetapiOptions;
}

/** Keys of a chunk that are never function keywords. */
const RESERVED = new Set([
  'client',
  'fun',
  'arg',
  'kwarg',
  'tgt',
  'tgt_type',
  'expr_form',
  'token',
  'username',
  'password',
  'eauth',
  'user',
  'key',
  'timeout',
  'full_return',
  'print_event',
  'ret',
  'batch',
  'batch_size',
  'batch_wait',
  'sub',
  'cli',
]);

/** Resolves targets as the master does (for ACL target entries). */
export function targetResolver(config: ResolvedMasterConfig): TargetResolver {
  return async (tgt, tgtType) => new Set((await expectedMinions(config, tgt, tgtType)).minions);
}

function str(chunk: Chunk, key: string): string | undefined {
  const v = chunk[key];
  return typeof v === 'string' && v ? v : undefined;
}

function funOf(chunk: Chunk): string {
  const fun = chunk.fun;
  if (typeof fun !== 'string' || !fun) throw new NETAPI_ERR_BAD_LOWSTATE('each lowstate chunk needs a "fun"');
  return fun;
}

function kwargOf(chunk: Chunk): Record<string, unknown> {
  const k = chunk.kwarg;
  if (k === undefined || k === null) return {};
  if (typeof k !== 'object' || Array.isArray(k))
    throw new NETAPI_ERR_BAD_LOWSTATE('"kwarg" must be a mapping');
  return { ...(k as Record<string, unknown>) };
}

function argOf(chunk: Chunk): unknown[] {
  return Array.isArray(chunk.arg) ? [...chunk.arg] : [];
}

/** The client name of a chunk, checked: known and enabled. */
export function clientOf(chunk: Chunk, enabled: readonly string[]): string {
  const client = chunk.client;
  if (typeof client !== 'string' || !client)
    throw new NETAPI_ERR_BAD_LOWSTATE(
      `each lowstate chunk needs a "client": one of ${ALL_CLIENTS.join(', ')}`,
    );
  if (!(ALL_CLIENTS as readonly string[]).includes(client))
    throw new NETAPI_ERR_BAD_LOWSTATE(
      `unknown client ${JSON.stringify(client)}: use one of ${ALL_CLIENTS.join(', ')}`,
    );
  if (!enabled.includes(client)) throw new NETAPI_ERR_CLIENT_DISABLED(client);
  return client;
}

interface LocalCall {
  tgt: unknown;
  tgtType: string;
  fun: string;
  arg: unknown[];
  ret: string;
}

function localCall(chunk: Chunk): LocalCall {
  const fun = funOf(chunk);
  const tgt = chunk.tgt;
  if (tgt === undefined || tgt === null || tgt === '')
    throw new NETAPI_ERR_BAD_LOWSTATE('client local needs a "tgt"');
  if (typeof tgt !== 'string' && !Array.isArray(tgt))
    throw new NETAPI_ERR_BAD_LOWSTATE('"tgt" must be a string or a list');
  const arg = argOf(chunk);
  const kwarg = kwargOf(chunk);
  if (Object.keys(kwarg).length > 0) arg.push({ ...kwarg, __kwarg__: true });
  return {
    tgt,
    tgtType: str(chunk, 'tgt_type') ?? str(chunk, 'expr_form') ?? 'glob',
    fun,
    arg,
    ret: str(chunk, 'ret') ?? '',
  };
}

async function checkLocal(env: ClientEnv, who: Identity, call: LocalCall): Promise<void> {
  const ok = await authCheck(
    who.authList,
    call.fun,
    call.arg,
    call.tgt,
    call.tgtType,
    targetResolver(env.config),
  );
  if (!ok)
    throw new NETAPI_ERR_FORBIDDEN(
      `user ${who.user} may not run ${call.fun} on target ${JSON.stringify(call.tgt)}`,
    );
}

function checkSpec(
  who: Identity,
  fun: string,
  arg: unknown[],
  kwarg: Record<string, unknown>,
  form: 'runner' | 'wheel',
) {
  const r = specCheck(who.authList, fun, { arg, kwarg }, form);
  if (r === true) return;
  if (r === false) throw new NETAPI_ERR_FORBIDDEN(`user ${who.user} may not run the ${form} function ${fun}`);
  throw new NETAPI_ERR_BAD_LOWSTATE(r.error.message);
}

/**
 * Waits for the returns of a published job: until every expected minion answered, or until
 * `timeout` passes and a `saltutil.find_job` check finds none still running.
 */
export async function gatherReturns(
  env: ClientEnv,
  pub: PublishResult & { jid: string },
  timeoutS: number,
  user: string,
): Promise<Map<string, JobReturn>> {
  const got = new Map<string, JobReturn>();
  const outstanding = new Set(pub.minions);
  if (outstanding.size === 0) return got;
  let wake: (() => void) | undefined;
  const prefix = `salt/job/${pub.jid}/ret/`;
  const stop = env.link.watchJob(pub.jid, (ev) => {
    if (!ev.tag.startsWith(prefix)) return;
    const id = ev.tag.slice(prefix.length);
    if (!outstanding.delete(id)) return;
    got.set(id, ev.data as unknown as JobReturn);
    wake?.();
  });
  const sleep = (ms: number) =>
    new Promise<void>((r) => {
      const t = setTimeout(r, ms);
      wake = () => {
        if (outstanding.size > 0) return;
        clearTimeout(t);
        r();
      };
    });
  const hardStop = Date.now() + env.opts.sync_timeout_max * 1000;
  try {
    while (outstanding.size > 0 && Date.now() < hardStop) {
      await sleep(Math.max(1, timeoutS * 1000));
      if (outstanding.size === 0) break;
      const running = await findJob(env, pub.jid, [...outstanding], user);
      if (running === 0) break;
    }
  } finally {
    stop();
  }
  return got;
}

/** How many of `ids` still run job `jid` (Salt's `saltutil.find_job` check). */
async function findJob(env: ClientEnv, jid: string, ids: string[], user: string): Promise<number> {
  const presence = readPresence(env.config.cachedir);
  const tracked = new Set(presence?.tracked);
  const present = new Set(presence?.present);
  const reachable = ids.filter((id) => !tracked.has(id) || present.has(id));
  if (reachable.length === 0) return 0;
  const fj = await env.link.publish({
    tgt: reachable,
    fun: 'saltutil.find_job',
    arg: [jid],
    tgtType: 'list',
    user,
  });
  if (!fj.jid) return 0;
  const res = await gatherOnce(env, fj.jid, fj.minions, env.config.gather_job_timeout * 1000);
  let running = 0;
  for (const ret of res.values()) {
    const r = ret.return;
    if (r && typeof r === 'object' && Object.keys(r).length > 0) running++;
  }
  return running;
}

/** Returns of `jid` from `ids` within `ms` (no find_job). */
async function gatherOnce(
  env: ClientEnv,
  jid: string,
  ids: string[],
  ms: number,
): Promise<Map<string, JobReturn>> {
  const got = new Map<string, JobReturn>();
  const outstanding = new Set(ids);
  const prefix = `salt/job/${jid}/ret/`;
  let done: () => void = () => undefined;
  const finished = new Promise<void>((r) => {
    done = r;
  });
  const stop = env.link.watchJob(jid, (ev) => {
    if (!ev.tag.startsWith(prefix)) return;
    const id = ev.tag.slice(prefix.length);
    if (!outstanding.delete(id)) return;
    got.set(id, ev.data as unknown as JobReturn);
    if (outstanding.size === 0) done();
  });
  const t = setTimeout(done, ms);
  await finished;
  clearTimeout(t);
  stop();
  return got;
}

function shapeReturns(rets: Map<string, JobReturn>, full: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [id, ret] of rets) {
    out[id] = full
      ? { ret: ret.return, retcode: ret.retcode ?? 0, jid: ret.jid, success: ret.success }
      : ret.return;
  }
  return out;
}

function timeoutOf(env: ClientEnv, chunk: Chunk): number {
  const t = Number(chunk.timeout);
  return Number.isFinite(t) && t > 0 ? Math.min(t, env.opts.sync_timeout_max) : env.config.timeout;
}

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
  const call = localCall(chunk);
  await checkLocal(env, who, call);
  const pub = await publishChecked(env, who, call);
  if (!pub.jid) return [{}];
  const rets = await gatherReturns(env, { ...pub, jid: pub.jid }, timeoutOf(env, chunk), who.user);
  return [shapeReturns(rets, chunk.full_return === true)];
}

async function runSubset(env: ClientEnv, who: Identity, chunk: Chunk): Promise<unknown[]> {
  const call = localCall(chunk);
  await checkLocal(env, who, call);
  const sub = chunk.sub === undefined ? 3 : Number(chunk.sub);
  if (!Number.isInteger(sub) || sub < 1)
    throw new NETAPI_ERR_BAD_LOWSTATE('"sub" must be a positive integer');
  const { minions } = await expectedMinions(env.config, call.tgt, call.tgtType);
  const presence = readPresence(env.config.cachedir);
  const live = presence ? minions.filter((m) => presence.present.includes(m)) : minions;
  const pool = [...(live.length > 0 ? live : minions)];
  for (let i = pool.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [pool[i], pool[j]] = [pool[j] as string, pool[i] as string];
  }
  const chosen = pool.slice(0, sub);
  if (chosen.length === 0) return [{}];
  const pub = await publishChecked(env, who, { ...call, tgt: chosen, tgtType: 'list' });
  if (!pub.jid) return [{}];
  const rets = await gatherReturns(env, { ...pub, jid: pub.jid }, timeoutOf(env, chunk), who.user);
  return [shapeReturns(rets, chunk.full_return === true)];
}

async function runBatchClient(env: ClientEnv, who: Identity, chunk: Chunk): Promise<unknown[]> {
  const call = localCall(chunk);
  await checkLocal(env, who, call);
  const spec = String(chunk.batch ?? chunk.batch_size ?? '10%');
  const timeout = timeoutOf(env, chunk);
  // Salt's batch first asks who answers a test.ping
  const ping = await env.link.publish({
    tgt: call.tgt,
    fun: 'test.ping',
    arg: [],
    tgtType: call.tgtType,
    user: who.user,
  });
  if (!ping.jid) return [];
  const alive = [...(await gatherReturns(env, { ...ping, jid: ping.jid }, timeout, who.user)).keys()].sort();
  const size = batchSize(spec, alive.length);
  const out: unknown[] = [];
  for (let i = 0; i < alive.length; i += size) {
    const next = alive.slice(i, i + size);
    const pub = await publishChecked(env, who, { ...call, tgt: next, tgtType: 'list' });
    if (!pub.jid) continue;
    const rets = await gatherReturns(env, { ...pub, jid: pub.jid }, timeout, who.user);
    for (const [id, ret] of rets) out.push(shapeReturns(new Map([[id, ret]]), chunk.full_return === true));
  }
  return out;
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
      const call = localCall(chunk);
      await checkLocal(env, who, call);
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
