/**
 * The job-control part of Salt's `saltutil` module (`salt/modules/saltutil.py`): list, find
 * and signal the jobs running on this minion, from `<cachedir>/proc/<jid>` files.
 * `saltutil.find_job` is what the master publishes to see whether a minion is still busy.
 */
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import type { ExecContext } from '../kernel/loader/define.js';
import { defineFunction, defineModule } from '../kernel/loader/define.js';
import { pyStr } from '../kernel/python/repr.js';
import { fnmatch } from './_fnmatch.js';
import { descendants, procDir, removeProcFile, runningJobs } from './_proc-jobs.js';

const jidArg = z.union([z.string(), z.number(), z.bigint()]).transform((v) => String(v));

const signalArg = z.union([z.number(), z.bigint(), z.string()]).transform((v, ctx) => {
  if (typeof v === 'string') {
    const trimmed = v.trim();
    if (/^\d+$/.test(trimmed)) return Number(trimmed);
    const name = trimmed.toUpperCase();
    const num = os.constants.signals[(name.startsWith('SIG') ? name : `SIG${name}`) as NodeJS.Signals];
    if (num === undefined) {
      ctx.addIssue({ code: 'custom', message: `unknown signal ${v}` });
      return z.NEVER;
    }
    return num;
  }
  return Number(v);
});

function running(ctx: ExecContext) {
  return runningJobs(ctx.opts, ctx.jid);
}

/** Salt's `signal_job`: the job's process tree gets `sig`; a vanished job's file is removed. */
function signalJob(ctx: ExecContext, jid: string, sig: number): string {
  for (const data of running(ctx)) {
    if (String(data.jid) !== jid) continue;
    const pid = Number(data.pid);
    // With multiprocessing off the job runs inside the minion: Salt would signal the whole
    // minion here; refuse instead.
    if (pid === process.pid) return `Job ${jid} runs inside the minion process and cannot be signalled`;
    try {
      for (const child of descendants(pid)) {
        try {
          process.kill(child, sig);
        } catch {
          // a child that is already gone does not matter
        }
      }
      process.kill(pid, sig);
      return `Signal ${sig} sent to job ${jid} at pid ${pyStr(data.pid)}`;
    } catch {
      removeProcFile(path.join(procDir(ctx.opts), jid));
      return `Job ${jid} was not running and job data has been cleaned up`;
    }
  }
  return '';
}

const SIGTERM = os.constants.signals.SIGTERM;
const SIGKILL = os.constants.signals.SIGKILL;

export default defineModule({
  name: 'saltutil',
  doc: 'Job control on the minion: the jobs it is running, and signals for them.',
  functions: {
    running: defineFunction({
      doc: 'Return the data on all running salt processes on the minion.',
      run: (ctx) => running(ctx),
    }),
    is_running: defineFunction({
      args: z.object({ fun: z.string() }),
      doc: 'If the named function is running return the data associated with it/them. The argument can be a glob.',
      run: (ctx, { fun }) => running(ctx).filter((d) => fnmatch(typeof d.fun === 'string' ? d.fun : '', fun)),
    }),
    find_job: defineFunction({
      args: z.object({ jid: jidArg }),
      doc: 'Return the data for a specific job id that is currently running, or {} when it is not.',
      run: (ctx, { jid }) => running(ctx).find((d) => String(d.jid) === jid) ?? {},
    }),
    signal_job: defineFunction({
      args: z.object({ jid: jidArg, sig: signalArg }),
      doc: "Send a signal to the named salt job's process (and its children).",
      run: (ctx, { jid, sig }) => signalJob(ctx, jid, sig),
    }),
    term_job: defineFunction({
      args: z.object({ jid: jidArg }),
      doc: "Send a termination signal (SIGTERM 15) to the named salt job's process.",
      run: (ctx, { jid }) => signalJob(ctx, jid, SIGTERM),
    }),
    kill_job: defineFunction({
      args: z.object({ jid: jidArg }),
      doc: "Send a kill signal (SIGKILL 9) to the named salt job's process.",
      run: (ctx, { jid }) => signalJob(ctx, jid, SIGKILL),
    }),
    term_all_jobs: defineFunction({
      doc: 'Send a termination signal (SIGTERM 15) to all currently running jobs.',
      run: (ctx) => running(ctx).map((d) => signalJob(ctx, String(d.jid), SIGTERM)),
    }),
    kill_all_jobs: defineFunction({
      doc: 'Send a kill signal (SIGKILL 9) to all currently running jobs.',
      run: (ctx) => running(ctx).map((d) => signalJob(ctx, String(d.jid), SIGKILL)),
    }),
  },
});
