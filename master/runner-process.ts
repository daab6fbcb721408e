/**
 * The process one runner job runs in (Salt's `AsyncClientMixin._proc_function`): a hang, a
 * crash or an exit here never touches a request worker. It fires `salt/run/<jid>/new`, runs
 * the function, stores the return in the master job cache, fires `salt/run/<jid>/ret`, tells
 * its parent and exits. What the runner prints goes out as `salt/run/<jid>/print` events.
 */
import { hostname } from 'node:os';
import { jobCacheView } from '../client/job-cache-view.js';
import { RunnerMinionClient } from '../client/minion-client.js';
import { EventFirer, masterEventAddresses } from '../kernel/bus/event-bus.js';
import type { ResolvedMasterConfig } from '../kernel/config/index.js';
import { masterReturnerLoader, openMasterJobCache } from '../kernel/jobs/master-job-cache.js';
import type { ReturnerContext, ReturnerDef } from '../kernel/jobs/returner.js';
import { createLogger } from '../kernel/log.js';
import { invokeFunction } from '../kernel/runners/invoke.js';
import { createRunnerLoader, createWheelLoader } from '../kernel/runners/loader.js';
import { BUILTIN_DIRS, BUILTIN_RETURNERS } from '../plugins/builtin-dirs.js';
import { createMasterKernel } from './master-kernel.js';
import { createRunnerContext } from './runner-context.js';
import {
  masterId,
  type RunnerDoneMessage,
  type RunnerJobMessage,
  runnerNewEvent,
} from './runner-protocol.js';

async function loadConfig(job: RunnerJobMessage): Promise<ResolvedMasterConfig> {
  if (!job.reloadConfig) return job.config as unknown as ResolvedMasterConfig;
  const { loadConfig: load } = await import('../kernel/config/index.js');
  return (await load('master', job.configDir, {})).config;
}

async function run(job: RunnerJobMessage): Promise<void> {
  const config = await loadConfig(job);
  const opts = config as unknown as Readonly<Record<string, unknown>>;
  const log = createLogger({
    name: `salt-master/Runner(${job.fun})`,
    level: config.log_level,
    file: config.log_file,
    fileLevel: config.log_level_logfile ?? config.log_level,
  });
  const firer = new EventFirer(masterEventAddresses(config.sock_dir));
  const fire = (tag: string, data: Record<string, unknown>): void => firer.fire(tag, data);
  const printTag = `salt/run/${job.jid}/print`;
  // print()/console.log in a runner: Salt prints it on the salt-run terminal; here it is an event
  process.stdout.write = ((chunk: string | Uint8Array): boolean => {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    fire(printTag, { text });
    return true;
  }) as typeof process.stdout.write;

  const kernel = await createMasterKernel(config, log);
  let store: ReturnerDef | undefined;
  let storeCtx: ReturnerContext | undefined;
  try {
    const cache = await openMasterJobCache(
      config,
      masterReturnerLoader(config, log, BUILTIN_RETURNERS, (name) => kernel.returners.get(name)),
    );
    store = cache.def;
    storeCtx = cache.ctx;
  } catch (err) {
    log.error({ err }, 'the master job cache is unavailable to this runner');
  }
  const client = new RunnerMinionClient(config);
  const abort = new AbortController();
  process.once('SIGTERM', () => abort.abort(new Error('runner stopped')));
  const runners = createRunnerLoader(opts, log, [BUILTIN_DIRS.runners]);
  const { ctx, retcode } = createRunnerContext({
    opts,
    log,
    jid: job.jid,
    user: job.user,
    fire,
    client,
    jobs: store && storeCtx ? jobCacheView(store, storeCtx) : emptyJobs(),
    runners,
    wheel: createWheelLoader(opts, log, [BUILTIN_DIRS.wheel]),
    signal: abort.signal,
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
  if (store && storeCtx) {
    try {
      await store.returner(
        {
          id: masterId(opts, hostname()),
          jid: job.jid,
          fun: `runner.${job.fun}`,
          fun_args: base.fun_args as unknown[],
          return: outcome.return,
          retcode: outcome.retcode,
          success: outcome.success,
        },
        storeCtx,
      );
    } catch (err) {
      log.error({ err }, 'Could not store job cache info. Job details for this run may be unavailable.');
    }
  }
  await kernel.hooks.runnerReturned.promise({
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
  await firer.close();
  await kernel.shutdown().catch(() => undefined);
  const done: RunnerDoneMessage = { type: 'done', success: outcome.success };
  await new Promise<void>((r) => (process.send ? process.send(done, () => r()) : r()));
}

function emptyJobs(): ReturnType<typeof jobCacheView> {
  return {
    name: 'none',
    listJobs: async () => [],
    getLoad: async () => undefined,
    getJid: async () => ({}),
    getFun: async () => ({}),
  };
}

// the parent went away (master shutdown): nobody is waiting for this runner any more
process.on('disconnect', () => process.exit(0));
process.once('message', (msg: RunnerJobMessage) => {
  run(msg).then(
    () => process.exit(0),
    (err: unknown) => {
      process.stderr.write(`runner ${msg.fun} failed: ${(err as Error).stack ?? String(err)}\n`);
      process.exit(1);
    },
  );
});
