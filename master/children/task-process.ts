/**
 * The process one task (`api.tasks`) runs in: it loads the master's config when plugins must
 * run here, applies the master's plugins as every master process does, opens the master job
 * cache, finds the task by name and runs it; then it flushes its events, tells its parent it
 * is done and exits. A hang, a crash or an exit here never touches a request worker.
 */
import type { ResolvedMasterConfig } from '../../kernel/config/index.js';
import { SALT_ERR_PROCESS_UNKNOWN } from '../../kernel/errors.js';
import { masterReturnerLoader, openMasterJobCache } from '../../kernel/jobs/master-job-cache.js';
import { createLogger } from '../../kernel/log.js';
import type { TaskContext } from '../../kernel/process/task.js';
import { masterProcessContext } from '../../kernel/units/context.js';
import { BUILTIN_RETURNERS } from '../../plugins/builtin-dirs.js';
import { createMasterKernel } from '../master-kernel.js';
import type { TaskDoneMessage, TaskStartMessage } from '../task-protocol.js';

async function configOf(msg: TaskStartMessage): Promise<ResolvedMasterConfig> {
  if (!msg.reloadConfig) return msg.config as unknown as ResolvedMasterConfig;
  const { loadConfig } = await import('../../kernel/config/index.js');
  return (await loadConfig('master', msg.configDir, {})).config;
}

async function run(msg: TaskStartMessage): Promise<void> {
  const config = await configOf(msg);
  const opts = config as unknown as Readonly<Record<string, unknown>>;
  const log = createLogger({
    name: `salt-master/${msg.title}`,
    level: config.log_level,
    file: config.log_file,
    fileLevel: config.log_level_logfile ?? config.log_level,
  });
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
