/**
 * The `runner` task: one runner job in a process of its own (Salt's
 * `AsyncClientMixin._proc_function`). It fires `salt/run/<jid>/new`, runs the function, stores
 * the return in the master job cache, runs the `runnerReturned` hook and fires
 * `salt/run/<jid>/ret`. What the runner prints goes out as `salt/run/<jid>/print` events.
 */
import { hostname } from 'node:os';
import { jobCacheView } from '../../client/job-cache-view.js';
import { RunnerMinionClient } from '../../client/minion-client.js';
import type { ResolvedMasterConfig, TaskContext } from '../../kernel/index.js';
import { createRunnerLoader, createWheelLoader, invokeFunction } from '../../kernel/services.js';
import { BUILTIN_DIRS } from '../builtin-dirs.js';
import { createRunnerContext } from './runner-context.js';
import { masterId, type RunnerJob, runnerNewEvent } from './runner-events.js';

/** Runs one runner job in the task's process. */
export async function runJob(task: TaskContext, job: RunnerJob): Promise<void> {
  const { config: opts, log } = task;
  const fire = (tag: string, data: Record<string, unknown>): void => void task.fire(tag, data);
  const printTag = `salt/run/${job.jid}/print`;
  // print()/console.log in a runner: Salt prints it on the salt-run terminal; here it is an event
  process.stdout.write = ((chunk: string | Uint8Array): boolean => {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    fire(printTag, { text });
    return true;
  }) as typeof process.stdout.write;

  const store = task.jobCache;
  const client = new RunnerMinionClient(opts as unknown as ResolvedMasterConfig);
  const runners = createRunnerLoader(opts, log, [BUILTIN_DIRS.runners]);
  const { ctx, retcode } = createRunnerContext({
    opts,
    log,
    jid: job.jid,
    user: job.user,
    fire,
    client,
    jobs: store ? jobCacheView(store.def, store.ctx) : emptyJobs(),
    runners,
    wheel: createWheelLoader(opts, log, [BUILTIN_DIRS.wheel]),
    signal: task.signal,
  });
  const base = runnerNewEvent(job.fun, job.jid, job.user, [
    ...job.args,
    ...(Object.keys(job.kwargs).length ? [job.kwargs] : []),
  ]);
  fire(`salt/run/${job.jid}/new`, base);
  const outcome = await invokeFunction('runner', runners, job.fun, job.args, job.kwargs, ctx, retcode);
  const data: Record<string, unknown> = { ...base, return: outcome.return, success: outcome.success };
  if (outcome.retcode !== 0) data.retcode = outcome.retcode;
  if (outcome.outputter) data.outputter = outcome.outputter;
  if (store) {
    try {
      await store.def.returner(
        {
          id: masterId(opts, hostname()),
          jid: job.jid,
          fun: `runner.${job.fun}`,
          fun_args: base.fun_args as unknown[],
          return: outcome.return,
          retcode: outcome.retcode,
          success: outcome.success,
        },
        store.ctx,
      );
    } catch (err) {
      log.error({ err }, 'Could not store job cache info. Job details for this run may be unavailable.');
    }
  }
  await task.runnerReturned({
    jid: job.jid,
    fun: job.fun,
    fun_args: base.fun_args as unknown[],
    user: job.user,
    return: outcome.return,
    success: outcome.success,
    retcode: outcome.retcode,
  });
  fire(`salt/run/${job.jid}/ret`, data);
  log.info(`Runner completed: ${job.jid}`);
  await client.close().catch(() => undefined);
}

/** The job cache view when the master job cache cannot be opened: no jobs. */
export function emptyJobs(): ReturnType<typeof jobCacheView> {
  return {
    name: 'none',
    listJobs: async () => [],
    getLoad: async () => undefined,
    getJid: async () => ({}),
    getFun: async () => ({}),
  };
}
