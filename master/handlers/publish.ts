/**
 * A client's clear `publish` request (PROTOCOL.md §6): check the user key, resolve the
 * expected minions, allocate the jid, store the load, fire the job events, hand the publish
 * load to the publisher.
 */
import { userKeyMatches } from '../../kernel/auth/clear-auth.js';
import { SALT_ERR_RETURNER_FAILED, SaltError } from '../../kernel/errors.js';
import type { PublishLoad, PublishRequest } from '../../kernel/jobs/types.js';
import { expectedMinions } from '../../kernel/targeting/expected-minions.js';
import type { Effects, HandlerEnv } from './context.js';

function authError(name: string, message: string): unknown {
  return { error: { name, message } };
}

/** The client's target delimiter: `kwargs.delimiter` as Salt's LocalClient sends it. */
function targetDelimiter(req: PublishRequest): string {
  const kwargs = req.kwargs as Record<string, unknown> | undefined;
  const given = kwargs?.delimiter ?? req.delimiter;
  return typeof given === 'string' && given ? given : ':';
}

/** Copies the publish-relevant fields of a request into the load minions receive. */
function publishLoad(req: PublishRequest, jid: string): PublishLoad {
  const load: PublishLoad = {
    fun: req.fun,
    arg: req.arg,
    tgt: req.tgt,
    jid,
    ret: req.ret,
    tgt_type: req.tgt_type,
    user: req.user ?? 'root',
  };
  const delimiter = targetDelimiter(req);
  if (delimiter !== ':') load.delimiter = delimiter;
  // Salt's LocalClient sends these inside `kwargs`; tsalt's clients may send them at the top.
  const kwargs = req.kwargs ?? {};
  // `id`: the minion that published the job (peer publish), which its minions see as `__pub_id`
  for (const k of ['id', 'metadata', 'to', 'ret_config', 'ret_kwargs', 'module_executors', 'executor_opts']) {
    const value = req[k] ?? kwargs[k];
    if (value !== undefined) load[k] = value;
  }
  return load;
}

/** Salt's ext_job_cache: the load also goes to that returner; a failure is logged, never fatal. */
async function saveExtLoad(
  env: HandlerEnv,
  jid: string,
  load: PublishRequest,
  minions: readonly string[],
): Promise<void> {
  const name = env.config.ext_job_cache;
  try {
    const { def } = await env.returners.get(name);
    if (!def.saveLoad) {
      env.kernel.log.error(
        `The specified returner used for the external job cache "${name}" does not have a save_load function!`,
      );
      return;
    }
    await def.saveLoad(jid, load, minions, env.returners.context(def));
  } catch (err) {
    env.kernel.log.error(
      { returner: name, jid, err: (err as Error).message },
      `ext_job_cache ${name} did not store the load of ${jid}: ${(err as Error).message}`,
    );
  }
}

/** A job cache failure with a code and the cache named (a returner may throw anything). */
function jobCacheError(env: HandlerEnv, method: string, err: unknown): SaltError {
  if (err instanceof SaltError) return err;
  return new SALT_ERR_RETURNER_FAILED(env.jobCache.name, method, (err as Error)?.message ?? String(err), {
    cause: err,
  });
}

export async function handlePublish(
  env: HandlerEnv,
  req: PublishRequest,
  effects: Effects,
): Promise<unknown> {
  if (!userKeyMatches(req.key, env.userKeys())) {
    env.kernel.log.warn({ user: req.user }, 'publish refused: bad user key');
    if (typeof req.jid === 'string' && req.jid) {
      effects.events.push({
        tag: `salt/job/${req.jid}/error`,
        data: { ...req, key: undefined, error: 'Authentication error occurred.' },
      });
    }
    return authError('AuthenticationError', 'Authentication error occurred.');
  }
  if (typeof req.fun !== 'string' && !Array.isArray(req.fun))
    return authError('SaltInvocationError', 'fun is required');
  if (!Array.isArray(req.arg)) req.arg = req.arg === undefined ? [] : [req.arg];
  const tgtType = typeof req.tgt_type === 'string' && req.tgt_type ? req.tgt_type : 'glob';
  req.tgt_type = tgtType;
  req.ret = typeof req.ret === 'string' ? req.ret : '';

  let minions: string[];
  let missing: string[];
  try {
    // nodegroups are resolved here so that minions need not know them (Salt's `_prep_pub`)
    const expected = await expectedMinions(env.config, req.tgt, tgtType, targetDelimiter(req));
    req.tgt = expected.tgt as PublishRequest['tgt'];
    req.tgt_type = expected.tgtType;
    ({ minions, missing } = expected);
  } catch (err) {
    const message = err instanceof SaltError ? err.message : String(err);
    env.kernel.log.warn({ tgt: req.tgt, tgt_type: tgtType }, `publish refused: ${message}`);
    return { enc: 'clear', load: { jid: null, minions: [], error: message } };
  }
  if (minions.length === 0 && missing.length === 0) {
    return {
      enc: 'clear',
      load: {
        jid: null,
        minions: [],
        error: `Master could not resolve minions for target ${String(req.tgt)}`,
      },
    };
  }

  const { def: jobCache, ctx } = env.jobCache;
  // Salt's `_prep_jid`: the job cache allocates the jid, or reserves the one the client chose.
  const passedJid = typeof req.jid === 'string' && req.jid ? req.jid : undefined;
  let jid: string;
  try {
    jid = await jobCache.prepJid!(ctx, passedJid ? { passedJid } : {});
  } catch (err) {
    const e = jobCacheError(env, 'prepJid', err);
    env.kernel.log.error({ err: e, code: e.code }, `publish refused: no jid: ${e.message}`);
    return { enc: 'clear', load: { jid: null, minions: [], error: `Master failed to assign jid: ${e}` } };
  }
  req.jid = jid;
  const load = await env.kernel.hooks.beforePublish.promise(publishLoad(req, jid));
  // what is stored is what goes out: the request as the hooks left its load
  const stored: Record<string, unknown> = { ...req, ...load, jid };
  delete stored.key;
  // The user key is a secret: unlike Salt, tsalt does not keep it in the job cache. As in Salt,
  // a job cache that cannot store the load is logged and the job still runs.
  await jobCache.saveLoad?.(jid, stored as PublishRequest, minions, ctx).catch((err: unknown) => {
    const e = jobCacheError(env, 'saveLoad', err);
    env.kernel.log.error({ err: e, code: e.code, jid }, `the load of ${jid} was not stored: ${e.message}`);
  });
  if (env.config.ext_job_cache) await saveExtLoad(env, jid, stored as PublishRequest, minions);

  effects.events.push({ tag: jid, data: { minions } });
  effects.events.push({
    tag: `salt/job/${jid}/new`,
    data: {
      jid,
      tgt_type: load.tgt_type,
      tgt: load.tgt,
      user: load.user,
      fun: load.fun,
      arg: load.arg,
      minions,
      missing,
    },
  });
  effects.publishes.push(load);
  env.kernel.log.info(`Published command ${String(req.fun)} with jid ${jid}`);
  await env.kernel.hooks.jobPublished.promise({ jid, load: stored as PublishRequest, minions, missing });
  return { enc: 'clear', load: { jid, minions, missing } };
}
