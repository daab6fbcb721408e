/**
 * A job process: forked by the minion's executor, it runs the jobs it is given (several at once
 * when the pool is full), isolated from the minion's main loop, and reports each result over
 * IPC. A crash here costs the jobs it held, never the minion.
 */
import type { ResolvedMinionConfig } from '../config/index.js';

import { readBoot } from '../daemon/boot.js';
import { createLogger } from '../log.js';
import { exitWhenParentDies } from '../process/child.js';
import { executeJob } from './execute-job.js';
import { createRunEnv } from './job-env.js';
import type { JobResult, RunJob } from './job-protocol.js';
import { minionReturnerLoader, returnJobToReturners } from './job-returners.js';
import { ipcMasterLink, setMasterLink } from './master-link.js';

exitWhenParentDies({ pollMs: 2000 });
const boot = readBoot();
// Job processes run no kernel plugins: the minion's resolved config is all they need.
const c = (boot.resolved ??
  (await (await import('../config/index.js')).loadConfig('minion', boot.configDir, boot.overrides))
    .config) as ResolvedMinionConfig;
const id = String(boot.overrides.id ?? c.id);
const log = createLogger({
  name: `salt-minion/job`,
  level: c.log_level,
  file: c.log_file,
  fileLevel: c.log_level_logfile ?? c.log_level,
});
const env = await createRunEnv(c, id, log);
// functions reach the master through the minion's main process
setMasterLink(id, ipcMasterLink());

const returners = minionReturnerLoader(c, log);

process.on('message', (msg: RunJob) => {
  if (msg?.type !== 'run') return;
  void executeJob(env, c.cachedir, msg.job).then(async (result) => {
    const reply: JobResult = { type: 'result', seq: msg.seq, jid: msg.job.jid, result };
    process.send?.(reply);
    // the master has the return (the main process sends it now); then the job's own returners
    await returnJobToReturners(returners, c, id, msg.job, result, log).catch((err) =>
      log.error({ err, jid: msg.job.jid }, 'returners failed'),
    );
  });
});
process.send?.({ type: 'ready' });
