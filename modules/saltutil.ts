/**
 * The job-control part of Salt's `saltutil` module (`salt/modules/saltutil.py`): list, find
 * and signal the jobs running on this minion, from `<cachedir>/proc/<jid>` files.
 * `saltutil.find_job` is what the master publishes to see whether a minion is still busy.
 * The sync functions copy extension units from the file server's `salt://_<form>` folders
 * (modules/_saltutil-sync*.ts); the cache, key and refresh functions have files of their own.
 */
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { defineFunction, defineModule, type ExecContext, SALT_ERR_EXEC_SYNC } from '../kernel/index.js';
import { pyStr } from '../kernel/util.js';
import { fnmatch } from './_fnmatch.js';
import { cleanKwargs } from './_invalid-kwargs.js';
import { descendants, procDir, removeProcFile, runningJobs } from './_proc-jobs.js';
import { cacheFunctions } from './_saltutil-cache.js';
import { keyFunctions } from './_saltutil-keys.js';
import { otherFunctions } from './_saltutil-other.js';
import { refreshFunctions, refreshPillar } from './_saltutil-refresh.js';
import { refreshModules } from './_saltutil-sync.js';
import { syncFunctions } from './_saltutil-sync-functions.js';

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

/** Whether this function runs in one of the minion's job processes (not in the minion or salt-call). */
function isJobProcess(ctx: ExecContext): boolean {
  // no master link: salt-call --local
  return ctx.master !== undefined && !ctx.master.inProcess && typeof process.send === 'function';
}

/** Salt's `signal_job`: the job's process tree gets `sig`; a vanished job's file is removed. */
function signalJob(ctx: ExecContext, jid: string, sig: number): string {
  for (const data of running(ctx)) {
    if (String(data.jid) !== jid) continue;
    const pid = Number(data.pid);
    // With multiprocessing off the job runs inside the minion: Salt would signal the whole
    // minion here; refuse instead.
    const inJobProcess = isJobProcess(ctx);
    if (pid === process.pid && !inJobProcess) {
      return `Job ${jid} runs inside the minion process and cannot be signalled`;
    }
    // Job processes are shared past job_processes_max: signalling the process would stop the
    // other jobs too, so the job alone is stopped through the minion (its abort signal fires).
    const shared = running(ctx).some((d) => String(d.jid) !== jid && Number(d.pid) === pid);
    if ((shared || pid === process.pid) && inJobProcess && ctx.master?.abortJob?.(jid, sig)) {
      return `Signal ${sig} sent to job ${jid}: it shares job process ${pyStr(data.pid)} with other jobs, so that job alone is stopped`;
    }
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

/** The master's runner/wheel/publish code, loaded by the functions that run it (it pulls the client and the runners). */
const masterFunctions = () => import('./_master-functions.js');

/** `saltutil.cmd` and `cmd_iter`: a publish through the master on this host (salt-ssh is not offered). */
function cmdFunction(doc: string) {
  return defineFunction({
    args: z.object({
      tgt: z.union([z.string(), z.array(z.string())]),
      fun: z.string(),
      arg: z.array(z.unknown()).default([]),
      timeout: z.number().nullish(),
      tgt_type: z.string().default('glob'),
      ret: z.string().default(''),
      kwarg: z.record(z.string(), z.unknown()).nullish(),
      ssh: z.boolean().default(false),
    }),
    varkw: true,
    doc,
    run: async (ctx, a) => {
      if (a.ssh)
        throw new SALT_ERR_EXEC_SYNC('salt-ssh is not available in tsalt: ssh=True cannot be served');
      return (await masterFunctions()).masterCmd(ctx, a.tgt, a.fun, {
        arg: a.arg,
        kwarg: a.kwarg ?? {},
        tgt_type: a.tgt_type,
        ...(a.timeout !== undefined && a.timeout !== null && { timeout: a.timeout }),
      });
    },
  });
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
    cmd: cmdFunction(
      "Assuming this minion is on the master's host, publish a salt command through the master (its config read from the `master` file beside the minion's).\n\nCLI Example: salt '*' saltutil.cmd",
    ),
    cmd_iter: cmdFunction(
      "As saltutil.cmd: publish a salt command through the master on this host; a minion's job returns the merged `{minion: {ret, retcode, jid, out}}` of what Salt's generator yields.\n\nCLI Example: salt '*' saltutil.cmd_iter",
    ),
    runner: defineFunction({
      args: z.object({
        name: z.string(),
        arg: z.array(z.unknown()).nullish(),
        kwarg: z.record(z.string(), z.unknown()).nullish(),
        full_return: z.boolean().default(false),
        saltenv: z.string().default('base'),
        jid: z.string().nullish(),
      }),
      varkw: true,
      doc: "Execute a runner function here, with the master's config read from the `master` file beside the minion's: run it on a minion on the master's host.\n\nCLI Example: salt master_minion saltutil.runner test.arg arg=\"['baz']\" kwarg=\"{'foo': 'bar'}\"",
      run: async (ctx, a, extra) => {
        const kwargs: Record<string, unknown> = { ...(a.kwarg ?? {}), ...cleanKwargs(extra.kwargs) };
        const user = typeof extra.kwargs.__pub_user === 'string' ? extra.kwargs.__pub_user : 'UNKNOWN';
        const call = { kind: 'runner' as const, fun: a.name, args: a.arg ?? [], kwargs, user };
        const ret = await (await masterFunctions()).runMasterFunction(ctx, call);
        return a.full_return ? ret : ret.return;
      },
    }),
    wheel: defineFunction({
      args: z.object({ name: z.string() }),
      varargs: true,
      varkw: true,
      doc: "Execute a wheel function here, with the master's config read from the `master` file beside the minion's: run it on a minion on the master's host. Returns Salt's full return ({fun, jid, user, fun_args, return, success}).\n\nCLI Example: salt my-local-minion saltutil.wheel key.accept jerry",
      run: async (ctx, a, extra) =>
        (await masterFunctions()).runMasterFunction(ctx, {
          kind: 'wheel',
          fun: a.name,
          args: extra.args,
          kwargs: cleanKwargs(extra.kwargs),
          user: 'UNKNOWN',
        }),
    }),
    refresh_modules: defineFunction({
      varkw: true,
      doc: "Make the minion load its execution modules anew for the next jobs (new job processes).\n\nCLI Example: salt '*' saltutil.refresh_modules",
      run: (ctx) => refreshModules(ctx),
    }),
    refresh_pillar: refreshPillar,
    ...syncFunctions,
    ...refreshFunctions,
    ...cacheFunctions,
    ...keyFunctions,
    ...otherFunctions,
    pillar_refresh: refreshPillar,
    kill_all_jobs: defineFunction({
      doc: 'Send a kill signal (SIGKILL 9) to all currently running jobs.',
      run: (ctx) => running(ctx).map((d) => signalJob(ctx, String(d.jid), SIGKILL)),
    }),
  },
});
