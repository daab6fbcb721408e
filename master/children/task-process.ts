/**
 * The process one task (`api.tasks`) runs in: it loads the master's config when plugins must
 * run here, applies the master's plugins as every master process does, opens the master job
 * cache, finds the task by name and runs it; then it flushes its events, tells its parent it
 * is done and exits. A hang, a crash or an exit here never touches a request worker.
 */
import type { ResolvedMasterConfig } from '../../kernel/config/index.js';
import { SALT_ERR_PROCESS_UNKNOWN } from '../../kernel/errors.js';
import { masterReturnerLoader, openMasterJobCache } from '../../kernel/jobs/master-job-cache.js';
import { createLogger, type Logger } from '../../kernel/log.js';
import type { TaskContext } from '../../kernel/process/task.js';
import { masterProcessContext } from '../../kernel/units/context.js';
import { BUILTIN_RETURNERS } from '../../plugins/builtin-dirs.js';
import { loadMasterConfig, withSdbValues } from '../config-reload.js';
import { createMasterKernel } from '../master-kernel.js';
import type { TaskDoneMessage, TaskStartMessage } from '../task-protocol.js';

/**
 * The config the task runs with: the one the master handed over, or with plugins the config
 * loaded again, its `sdb://` values read as the master read them at start (Salt's `apply_sdb`;
 * the values are logged nowhere and never written to the config cache).
 */
async function configOf(msg: TaskStartMessage, log: Logger): Promise<ResolvedMasterConfig> {
  if (!msg.reloadConfig) return msg.config as unknown as ResolvedMasterConfig;
  return withSdbValues(await loadMasterConfig(msg.configDir, {}), log);
}

async function run(msg: TaskStartMessage): Promise<void> {
  // the log options as the master handed them over
  const handed = msg.config as unknown as ResolvedMasterConfig;
  const log = createLogger({
    name: `salt-master/${msg.title}`,
    level: handed.log_level,
    file: handed.log_file,
    fileLevel: handed.log_level_logfile ?? handed.log_level,
  });
  const config = await configOf(msg, log);
  const opts = config as unknown as Readonly<Record<string, unknown>>;
  const kernel = await createMasterKernel(config, log);
  const def = kernel.tasks.get(msg.task);
  if (!def) throw new SALT_ERR_PROCESS_UNKNOWN(msg.task);
  let jobCache: TaskContext['jobCache'];
  try {
    jobCache = await openMasterJobCache(
      config,
      masterReturnerLoader(config, log, BUILTIN_RETURNERS, (name) => kernel.returners.get(name)),
    );
  } catch (err) {
    log.error({ err }, 'the master job cache is unavailable to this task');
  }
  const abort = new AbortController();
  process.once('SIGTERM', () => abort.abort(new Error('task stopped')));
  const bus = masterProcessContext({ name: msg.task, start: () => undefined }, opts, {}, log, abort.signal);
  try {
    await def.run(
      {
        name: msg.task,
        config: opts,
        configDir: msg.configDir,
        log,
        fire: bus.fire,
        listen: bus.listen,
        signal: abort.signal,
        kinds: kernel.kinds,
        jobCache,
        runnerReturned: (ret) => kernel.hooks.runnerReturned.promise(ret),
      },
      msg.payload,
    );
  } finally {
    await bus.close();
    await kernel.shutdown().catch(() => undefined);
  }
  const done: TaskDoneMessage = { type: 'done' };
  await new Promise<void>((r) => (process.send ? process.send(done, () => r()) : r()));
}

// the parent went away (master shutdown): nobody is waiting for this task any more
process.on('disconnect', () => process.exit(0));
process.once('message', (msg: TaskStartMessage) => {
  run(msg).then(
    () => process.exit(0),
    (err: unknown) => {
      process.stderr.write(`task ${msg.title} failed: ${(err as Error).stack ?? String(err)}\n`);
      process.exit(1);
    },
  );
});
