/**
 * The `runner` clear command (Salt's `ClearFuncs.runner`): check the user key, allocate a
 * jid, store the job's load, start the runner in its own process and answer at once with
 * `{tag, jid}`. The runner process fires `salt/run/<jid>/new` and `/ret`; when it dies or
 * runs past the client's `timeout`, the error return is fired from here.
 */
import { hostname } from 'node:os';
import type { CommandContext, PublishRequest, SaltError, TaskFailure } from '../../kernel/index.js';
import type { EventFirer } from '../../kernel/services.js';
import { SALT_ERR_RUNNER_CRASHED, SALT_ERR_RUNNER_TIMEOUT } from './errors.js';
import { masterId, type RunnerJob, runnerNewEvent } from './runner-events.js';

// The event bus client is loaded on the first runner failure: a request-server worker that only
// serves minions never needs it.

/** One firer per worker thread for the events fired after the reply (a runner's failure). */
const firers = new Map<string, Promise<EventFirer>>();

function firerFor(sockDir: string): Promise<EventFirer> {
  let f = firers.get(sockDir);
  if (!f) {
    f = import('../../kernel/services.js').then(
      ({ EventFirer, masterEventAddresses }) => new EventFirer(masterEventAddresses(sockDir)),
    );
    firers.set(sockDir, f);
  }
  return f;
}

function failureError(fun: string, failure: TaskFailure): SaltError {
  return failure.reason === 'timeout'
    ? new SALT_ERR_RUNNER_TIMEOUT(fun, failure.seconds)
    : new SALT_ERR_RUNNER_CRASHED(fun, failure.detail);
}

/** The `runner` clear command's handler. */
export async function handleRunner(load: Record<string, unknown>, ctx: CommandContext): Promise<unknown> {
  const auth = ctx.clearUser(load);
  if ('error' in auth) {
    ctx.log.warn({ user: load.user, fun: load.fun }, 'runner refused: bad user key');
    return auth;
  }
  const fun = load.fun;
  if (typeof fun !== 'string' || !/^[^.\s]+\.[^\s]+$/.test(fun)) {
    return {
      error: { name: 'SaltInvocationError', message: `"${String(fun)}" is not a runner function name` },
    };
  }
  const { normalizeArgs } = await import('../../kernel/services.js');
  const { args, kwargs } = normalizeArgs(load.arg, load.kwarg);
  const { def: store, ctx: storeCtx } = ctx.jobCache;
  const jid = await store.prepJid!(storeCtx);
  const tag = `salt/run/${jid}`;
  const id = masterId(ctx.config as unknown as Record<string, unknown>, hostname());
  const base = runnerNewEvent(fun, jid, auth.user, [
    ...args,
    ...(Object.keys(kwargs).length ? [kwargs] : []),
  ]);
  try {
    const stored = {
      fun: `runner.${fun}`,
      arg: base.fun_args,
      tgt: id,
      tgt_type: 'list',
      jid,
      user: auth.user,
      ret: '',
    } as unknown as PublishRequest;
    await store.saveLoad?.(jid, stored, [id], storeCtx);
  } catch (err) {
    ctx.log.warn({ err, jid }, 'could not store the runner job load');
  }
  const timeout = typeof load.timeout === 'number' && load.timeout > 0 ? load.timeout : undefined;
  const job: RunnerJob = { fun, args, kwargs, jid, user: auth.user };
  const onFailure = (failure: TaskFailure): void => {
    const err = failureError(fun, failure);
    const data = { ...base, return: err.message, success: false, retcode: 1, error_code: err.code };
    firerFor(ctx.config.sock_dir).then(
      (firer) => firer.fire(`${tag}/ret`, data),
      (e: unknown) => ctx.log.warn({ err: e, jid }, 'could not fire the runner failure'),
    );
    store
      .returner(
        {
          id,
          jid,
          fun: `runner.${fun}`,
          fun_args: base.fun_args as unknown[],
          return: err.message,
          retcode: 1,
          success: false,
        },
        storeCtx,
      )
      .catch((e: unknown) => ctx.log.warn({ err: e, jid }, 'could not store the runner failure'));
  };
  ctx.startTask('runner', job, {
    title: `Runner(${fun})`,
    ...(timeout !== undefined && { timeoutSeconds: timeout }),
    onFailure,
  });
  ctx.log.info(`Started runner ${fun} with jid ${jid}`);
  return { tag, jid };
}
