/**
 * Waiting for the returns of a published job (Salt's `get_cli_event_returns`): every expected
 * minion answered, or the timeout passed and a `saltutil.find_job` check finds none still
 * running.
 */

import type { JobReturn } from '../../kernel/index.js';
import { readPresence } from '../../kernel/services.js';
import type { ClientEnv, LocalCall } from './local-call.js';
import type { PublishResult } from './master-client.js';

/**
 * Waits for the returns of a published job: until every expected minion answered, or until
 * `timeout` passes and a `saltutil.find_job` check finds none still running.
 */
export async function gatherReturns(
  env: ClientEnv,
  pub: PublishResult & { jid: string },
  timeoutS: number,
  user: string,
  order?: string[],
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
    order?.push(id);
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
  return (await stillRunning(env, jid, ids, user)).length;
}

/**
 * Which of `ids` still run job `jid` (Salt's `saltutil.find_job` check); minions the master
 * knows to be disconnected are not asked.
 */
export async function stillRunning(
  env: ClientEnv,
  jid: string,
  ids: string[],
  user: string,
): Promise<string[]> {
  const presence = readPresence(env.config.cachedir);
  const tracked = new Set(presence?.tracked);
  const present = new Set(presence?.present);
  const reachable = ids.filter((id) => !tracked.has(id) || present.has(id));
  if (reachable.length === 0) return [];
  const fj = await env.link.publish({
    tgt: reachable,
    fun: 'saltutil.find_job',
    arg: [jid],
    tgtType: 'list',
    user,
  });
  if (!fj.jid) return [];
  const res = await gatherOnce(env, fj.jid, fj.minions, env.config.gather_job_timeout * 1000);
  const running: string[] = [];
  for (const [id, ret] of res) {
    const r = ret.return;
    if (r && typeof r === 'object' && Object.keys(r).length > 0) running.push(id);
  }
  return running;
}

/** Returns of `jid` from `ids` within `ms` (no find_job). */
export async function gatherOnce(
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

export function shapeReturns(rets: Map<string, JobReturn>, full: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [id, ret] of rets) {
    out[id] = full
      ? { ret: ret.return, retcode: ret.retcode ?? 0, jid: ret.jid, success: ret.success }
      : ret.return;
  }
  return out;
}

/**
 * Asks the minions a call targets one argument-less question (`test.ping` for batch mode,
 * `sys.list_functions` for `local_subset`) and gathers their answers; empty when the publish
 * reached no minion.
 */
export async function askTargets(
  env: ClientEnv,
  call: LocalCall,
  fun: string,
  timeoutS: number,
  user: string,
): Promise<Map<string, JobReturn>> {
  const pub = await env.link.publish({ tgt: call.tgt, fun, arg: [], tgtType: call.tgtType, user });
  return pub.jid ? gatherReturns(env, { ...pub, jid: pub.jid }, timeoutS, user) : new Map();
}
