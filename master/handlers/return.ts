/**
 * A minion's `_return` (PROTOCOL.md §7): store it in the master job cache (which refuses a
 * second return for the same job and minion: a replay), let returners see it through the
 * `returnReceived` hook, and fire `salt/job/<jid>/ret/<id>`.
 */
import { isJid } from '../../kernel/jid.js';
import type { JobReturn } from '../../kernel/jobs/types.js';
import type { Effects, HandlerEnv } from './context.js';

export async function handleReturn(
  env: HandlerEnv,
  load: Record<string, unknown>,
  effects: Effects,
): Promise<unknown> {
  if (!('return' in load) || typeof load.jid !== 'string' || typeof load.id !== 'string') {
    env.kernel.log.warn({ id: load.id, jid: load.jid }, 'return without return, jid or id: dropped');
    return false;
  }
  const { def: jobCache, ctx } = env.jobCache;
  if (load.jid === 'req') {
    const jid = await jobCache.prepJid!(ctx);
    load.jid = jid;
    await jobCache.saveLoad?.(
      jid,
      {
        cmd: 'publish',
        tgt: load.id,
        tgt_type: 'glob',
        fun: load.fun as string,
        arg: (load.fun_args as unknown[]) ?? [],
        ret: '',
        jid,
        user: (load.user as string) ?? 'root',
      },
      [load.id],
      ctx,
    );
  } else if (load.jid === 'nocache') {
    // a scheduled job's `return_job: nocache` (Salt's store_job): the event only, nothing stored
    effects.events.push({ tag: `salt/job/nocache/ret/${load.id}`, data: load as JobReturn });
    return null;
  } else if (!isJid(load.jid)) {
    env.kernel.log.warn({ id: load.id, jid: load.jid }, 'return with an invalid jid: dropped');
    return false;
  }
  // The event data is the load as the minion sent it, minus nonce and tok (Salt's order kept).
  const ret = load as JobReturn;
  // Salt's store_job: with an ext_job_cache the minions return to it, not to the master cache.
  if (env.config.job_cache && !env.config.ext_job_cache) {
    try {
      await jobCache.returner(ret, ctx);
    } catch (err) {
      if ((err as { code?: string }).code === 'SALT_ERR_JOB_DUPLICATE_RETURN') {
        env.kernel.log.warn({ id: ret.id, jid: ret.jid }, (err as Error).message);
        return null;
      }
      env.kernel.log.error({ id: ret.id, jid: ret.jid, err }, 'the job cache could not store a return');
    }
  }
  // Returners and other listeners; a failing one is logged by the kernel and contained.
  await env.kernel.hooks.returnReceived.promise(ret);
  effects.events.push({ tag: `salt/job/${ret.jid}/ret/${ret.id}`, data: ret });
  env.kernel.log.info(`Got return from ${ret.id} for job ${ret.jid}`);
  return null;
}
