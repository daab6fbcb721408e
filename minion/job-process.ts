/**
 * A job process: forked by the minion's executor, it runs the jobs it is given (several at once
 * when the pool is full), isolated from the minion's main loop, and reports each result over
 * IPC. A crash here costs the jobs it held, never the minion.
 */
import type { ResolvedMinionConfig } from '../kernel/config/index.js';

import { readBoot } from '../kernel/daemon/boot.js';
import { createLogger } from '../kernel/log.js';
import { exitWhenParentDies } from '../kernel/process/child.js';
import { unpackIpc } from '../kernel/serial/index.js';
import { executeJob } from './execute-job.js';
import { createRunEnv } from './job-env.js';
import { type AbortJob, type JobResult, packOutcome, type RunJob } from './job-protocol.js';
import { minionReturnerLoader, returnJobToReturners } from './job-returners.js';
import { ipcMasterLink, setMasterLink } from './master-link.js';
import type { RunEnv } from './run-function.js';

exitWhenParentDies({ pollMs: 2000 });
const boot = readBoot();
// Job processes run no kernel plugins: the minion's resolved config is all they need.
const c = (boot.resolved ??
  (await (await import('../kernel/config/index.js')).loadConfig('minion', boot.configDir, boot.overrides))
    .config) as ResolvedMinionConfig;
const id = String(boot.overrides.id ?? c.id);
const log = createLogger({
  name: `salt-minion/job`,
  level: c.log_level,
  file: c.log_file,
  fileLevel: c.log_level_logfile ?? c.log_level,
});
const env: RunEnv & { pillar?: Record<string, unknown> } = await createRunEnv(c, id, log);
// functions reach the master through the minion's main process
setMasterLink(id, ipcMasterLink());

const returners = minionReturnerLoader(c, log);

// jobs whose returners still run: an `exit` from the executor waits for them
let busy = 0;
let exitWhenDone = false;
const maybeExit = (): void => {
  if (exitWhenDone && busy === 0) process.exit(0);
};

// each running job's abort switch, by jid (saltutil.kill_job of a job sharing this process)
const aborts = new Map<string, AbortController>();

process.on('message', (msg: RunJob | AbortJob | { type: 'exit' }) => {
  if (msg?.type === 'exit') {
    exitWhenDone = true;
    maybeExit();
    return;
  }
  if (msg?.type === 'abort-job') {
    aborts.get(msg.jid)?.abort(new Error(`job ${msg.jid} stopped by signal ${msg.sig}`));
    return;
  }
  if (msg?.type !== 'run') return;
  if (msg.pillar) env.pillar = unpackIpc(msg.pillar) as Record<string, unknown>;
  busy++;
  const abort = new AbortController();
  aborts.set(msg.job.jid, abort);
  void executeJob(env, c.cachedir, msg.job, abort.signal)
    .then(async (result) => {
      const reply: JobResult = {
        type: 'result',
        seq: msg.seq,
        jid: msg.job.jid,
        result: packOutcome(result),
      };
      process.send?.(reply);
      // the master has the return (the main process sends it now); then the job's own returners
      await returnJobToReturners(returners, c, id, msg.job, result, log).catch((err) =>
        log.error({ err, jid: msg.job.jid }, 'returners failed'),
      );
    })
    .catch((err: Error) => {
      // executeJob settles runFunction's errors itself: this is the proc file failing (disk)
      log.error({ err, jid: msg.job.jid }, 'job failed outside its function');
      const result = { return: `ERROR: ${err.message}`, retcode: 1, success: false, out: 'nested' };
      process.send?.({
        type: 'result',
        seq: msg.seq,
        jid: msg.job.jid,
        result: packOutcome(result),
      } satisfies JobResult);
    })
    .finally(() => {
      if (aborts.get(msg.job.jid) === abort) aborts.delete(msg.job.jid);
      busy--;
      maybeExit();
    });
});
process.send?.({ type: 'ready' });
