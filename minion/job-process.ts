/**
 * A job process: forked by the minion's executor, it runs the jobs it is given (several at once
 * when the pool is full), isolated from the minion's main loop, and reports each result over
 * IPC. A crash here costs the jobs it held, never the minion.
 *
 * Left by the main process (told `detach` by a stopping minion, or its parent gone), it takes
 * no new job, finishes the ones it runs, sends their returns through a channel of its own
 * (own-channel.ts) and exits: a minion restart or upgrade never loses a running job's return.
 */
import type { ResolvedMinionConfig } from '../kernel/config/index.js';

import { readBoot } from '../kernel/daemon/boot.js';
import { unpackIpc } from '../kernel/serial/index.js';
import { executeJob, type JobOutcome } from './execute-job.js';
import { takeHostGrains } from './host-grains.js';
import { createRunEnv } from './job-env.js';
import {
  type AbortJob,
  type DetachJobs,
  type JobResult,
  type JobsDetached,
  packOutcome,
  type RunJob,
} from './job-protocol.js';
import { lazyLogger } from './lazy-logger.js';
import { ipcMasterLink, setMasterLink } from './master-link.js';
import { type OwnChannel, openOwnChannel } from './own-channel.js';
import type { RunEnv } from './run-function.js';

const boot = readBoot();
// Job processes run no kernel plugins: the minion's resolved config is all they need.
const c = (boot.resolved ??
  (await (await import('../kernel/config/index.js')).loadConfig('minion', boot.configDir, boot.overrides))
    .config) as ResolvedMinionConfig;
const id = String(boot.overrides.id ?? c.id);
const log = lazyLogger({
  name: `salt-minion/job`,
  level: c.log_level,
  file: c.log_file,
  fileLevel: c.log_level_logfile ?? c.log_level,
});
const env: RunEnv & { pillar?: Record<string, unknown> } = await createRunEnv(c, id, log, takeHostGrains());
// functions reach the master through the minion's main process
setMasterLink(id, ipcMasterLink());

// the returners' code (4 modules) loads with the first job that names a returner (issue 25)
let returners: Promise<(job: RunJob['job'], result: JobOutcome) => Promise<void>> | undefined;
const sendToReturners = (job: RunJob['job'], result: JobOutcome): Promise<void> => {
  if (!(typeof job.ret === 'string' && job.ret.trim()) && c.return.length === 0) return Promise.resolve();
  returners ??= import('./job-returners.js').then(({ minionReturnerLoader, returnJobToReturners }) => {
    const loader = minionReturnerLoader(c, log);
    return (j, r) => returnJobToReturners(loader, c, id, j, r, log);
  });
  return returners.then((send) => send(job, result));
};

// jobs whose returners still run: an `exit` from the executor waits for them
let busy = 0;
let exitWhenDone = false;
const maybeExit = (): void => {
  if (exitWhenDone && busy === 0) {
    own?.close();
    process.exit(0);
  }
};

// set once the main process has left this process's jobs to it
let own: OwnChannel | undefined;
function detach(why: string): void {
  if (!own) {
    own = openOwnChannel(c, id, log, {
      grains: () => env.grains,
      replace: (pillar) => {
        env.pillar = pillar;
      },
    });
    setMasterLink(id, own.link);
    if (busy > 0) log.info({ jobs: busy, why }, 'the minion left its running jobs to this process');
  }
  exitWhenDone = true;
  maybeExit();
}
// the parent gone (even SIGKILLed): the IPC channel closes, or this process is re-parented
process.on('disconnect', () => detach('the minion process is gone'));
const parentPid = process.ppid;
setInterval(() => {
  if (process.ppid !== parentPid) detach('the minion process is gone');
}, 2000).unref();

/** Reports a job's result: to the main process, or to the master itself once detached. */
async function report(reply: JobResult, job: RunJob['job'], result: Parameters<typeof packOutcome>[0]) {
  if (!own) {
    process.send?.(reply);
    return;
  }
  try {
    await own.sendReturn(job, result);
  } catch (err) {
    log.error(
      { jid: job.jid, err: (err as Error).message },
      'the return could not be delivered to the master',
    );
  }
}

// each running job's abort switch, by jid (saltutil.kill_job of a job sharing this process)
const aborts = new Map<string, AbortController>();

process.on('message', (msg: RunJob | AbortJob | DetachJobs | { type: 'exit' }) => {
  if (msg?.type === 'detach') {
    detach('the minion is stopping');
    process.send?.({ type: 'detached' } satisfies JobsDetached);
    return;
  }
  if (msg?.type === 'exit') {
    exitWhenDone = true;
    maybeExit();
    return;
  }
  if (msg?.type === 'abort-job') {
    aborts.get(msg.jid)?.abort(new Error(`job ${msg.jid} stopped by signal ${msg.sig}`));
    return;
  }
  if (msg?.type !== 'run' || own) return;
  if (msg.pillar) env.pillar = unpackIpc(msg.pillar, { exactFloats: true }) as Record<string, unknown>;
  if (msg.arg) msg.job.arg = unpackIpc(msg.arg, { exactFloats: true }) as unknown[];
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
      await report(reply, msg.job, result);
      // the master has the return (the main process sends it now); then the job's own returners
      await sendToReturners(msg.job, result).catch((err) =>
        log.error({ err, jid: msg.job.jid }, 'returners failed'),
      );
    })
    .catch((err: Error) => {
      // executeJob settles runFunction's errors itself: this is the proc file failing (disk)
      log.error({ err, jid: msg.job.jid }, 'job failed outside its function');
      const result = { return: `ERROR: ${err.message}`, retcode: 1, success: false, out: 'nested' };
      const reply: JobResult = {
        type: 'result',
        seq: msg.seq,
        jid: msg.job.jid,
        result: packOutcome(result),
      };
      return report(reply, msg.job, result);
    })
    .finally(() => {
      if (aborts.get(msg.job.jid) === abort) aborts.delete(msg.job.jid);
      busy--;
      maybeExit();
    });
});
process.send?.({ type: 'ready' });
