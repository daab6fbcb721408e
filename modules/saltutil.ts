/**
 * The job-control part of Salt's `saltutil` module (`salt/modules/saltutil.py`): list, find
 * and signal the jobs running on this minion, from `<cachedir>/proc/<jid>` files.
 * `saltutil.find_job` is what the master publishes to see whether a minion is still busy.
 * The sync functions copy extension units from the file server's `salt://_<form>` folders.
 */
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { defineFunction, defineModule, type ExecContext, type MasterLink } from '../kernel/index.js';
import { pyStr } from '../kernel/util.js';
import { syncForm } from './_extmods-sync.js';
import { fileChannel } from './_file-channel.js';
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

/** The keywords a caller gave, without Salt's `__`-prefixed ones (`__pub_*`, `__env__`, ...). */
function publicKwargs(kwargs: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(kwargs).filter(([k]) => !k.startsWith('__')));
}

/** Salt's comma-separated string or list of names. */
const nameList = z
  .union([z.string(), z.array(z.unknown())])
  .nullable()
  .default(null)
  .transform((v) =>
    v === null ? null : (typeof v === 'string' ? v.split(',') : v.map(String)).filter(Boolean),
  );

const syncArgs = z.object({
  saltenv: nameList,
  refresh: z.boolean().default(true),
  extmod_whitelist: nameList,
  extmod_blacklist: nameList,
});

const RESTART_NOTE = 'multiprocessing is off: restart the minion to load changed modules';

/** Salt's `refresh_modules`: new job processes load modules anew; in-process jobs cannot. */
function refresh(link: MasterLink): true | string {
  link.recycle();
  return link.inProcess ? RESTART_NOTE : true;
}

/** Salt's `refresh_modules` for minion `id`; without a master link (salt-call) the next call loads anew anyway. */
export function refreshModules(ctx: ExecContext): true | string {
  return ctx.master ? refresh(ctx.master) : true;
}

/**
 * Salt's `_sync(form, ...)`: the `<form>.<name>` added or changed, in sync order, from the
 * master's file server, or from the minion's own `file_roots` with `file_client: local`
 * (`salt-call --local`), as Salt's file client does.
 */
async function syncExtForm(
  ctx: ExecContext,
  args: Pick<z.output<typeof syncArgs>, 'saltenv' | 'extmod_whitelist' | 'extmod_blacklist'>,
  form: SyncForm,
): Promise<{ changed: string[]; touched: boolean }> {
  const extmods = String(ctx.opts.extension_modules ?? '');
  const allow = args.extmod_whitelist;
  const deny = args.extmod_blacklist ?? [];
  return syncForm({
    extensionModules: extmods,
    form,
    saltenvs: args.saltenv ?? ['base'],
    hashType: String(ctx.opts.hash_type ?? 'sha256'),
    request: fileChannel(ctx),
    accept: (name) => (allow === null || allow.includes(name)) && !deny.includes(name),
  });
}

/** The return of a sync: Salt's list, plus the restart note when in-process jobs cannot reload. */
function withNote(changed: string[], touched: boolean, link: MasterLink | undefined): string[] {
  return link?.inProcess && touched ? [...changed, RESTART_NOTE] : changed;
}

type SyncForm = 'modules' | 'states' | 'sdb' | 'grains' | 'returners' | 'matchers';

/** `saltutil.sync_<form>`: sync the form, then (with `refresh`) recycle the job processes. */
/** A `sync_<form>` function; `refresh` defaults to True but for sync_matchers, as Salt's signatures say. */
function syncFunction(form: SyncForm, doc: string, o: { clean_pillar_cache?: true; refresh?: false } = {}) {
  let args = o.clean_pillar_cache
    ? syncArgs.extend({ clean_pillar_cache: z.boolean().default(false) })
    : syncArgs;
  if (o.refresh === false) args = args.extend({ refresh: z.boolean().default(false) });
  return defineFunction({
    args,
    doc,
    run: async (ctx, args) => {
      const { changed, touched } = await syncExtForm(ctx, args, form);
      if (args.refresh) ctx.master?.recycle();
      return withNote(changed, touched, ctx.master);
    },
  });
}

/** Salt's `sync_all` keys, in Salt's order; tsalt syncs `modules`, `states`, `sdb`, `grains`, `returners` and `matchers`. */
const SYNC_ALL_FORMS = [
  'clouds',
  'beacons',
  'modules',
  'states',
  'sdb',
  'grains',
  'renderers',
  'returners',
  'output',
  'utils',
  'log_handlers',
  'executors',
  'proxymodules',
  'engines',
  'thorium',
  'serializers',
  'matchers',
] as const;

const SIGTERM = os.constants.signals.SIGTERM;
const SIGKILL = os.constants.signals.SIGKILL;

/** `refresh_pillar` (and Salt's alias `pillar_refresh`). */
const refreshPillar = defineFunction({
  args: (zod) =>
    zod.object({
      wait: zod.unknown().default(false),
      timeout: zod.coerce.number().default(30),
      clean_cache: zod.unknown().default(true),
    }),
  doc: "Have the minion fetch its pillar from the master again; it fires `minion_pillar_refresh_complete` when done.\n\nReturns True once the new pillar is in place (tsalt waits for it whatever `wait` says), False when the master did not answer within `timeout` seconds.\n\nCLI Example: salt '*' saltutil.refresh_pillar",
  run: async (ctx, a) => {
    const link = ctx.master;
    if (!link?.refreshPillar) return false;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), Math.max(0, a.timeout) * 1000);
    });
    try {
      const refresh = link.refreshPillar;
      return await Promise.race([refresh.call(link).then(() => true), timeout]);
    } catch (err) {
      ctx.log.warn({ err: (err as Error).message }, 'pillar refresh failed');
      return false;
    } finally {
      clearTimeout(timer);
    }
  },
});

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
    sync_modules: syncFunction(
      'modules',
      "Sync execution modules from salt://_modules on the master into the minion's extension_modules.\n\nReturns the modules added or changed, as `modules.<name>`; modules the master no longer has are removed. With refresh (the default) the next jobs load the new modules.\n\nCLI Example: salt '*' saltutil.sync_modules saltenv=base,dev",
    ),
    sync_states: syncFunction(
      'states',
      "Sync state modules from salt://_states on the master into the minion's extension_modules/states.\n\nReturns the state modules added or changed, as `states.<name>`; those the master no longer has are removed. New job processes load them.\n\nCLI Example: salt '*' saltutil.sync_states",
    ),
    sync_sdb: defineFunction({
      args: syncArgs.omit({ refresh: true }),
      doc: "Sync sdb drivers from salt://_sdb on the master into the minion's extension_modules/sdb.\n\nReturns the drivers added or changed, as `sdb.<name>`; those the master no longer has are removed. It takes no refresh argument (Salt's has none): when anything changed, new job processes load the drivers anew.\n\nCLI Example: salt '*' saltutil.sync_sdb saltenv=base,dev",
      run: async (ctx, args) => {
        const { changed, touched } = await syncExtForm(ctx, args, 'sdb');
        // Salt touches its module_refresh file whenever the folder changed
        if (touched) ctx.master?.recycle();
        return withNote(changed, touched, ctx.master);
      },
    }),
    sync_grains: syncFunction(
      'grains',
      "Sync custom grain modules from salt://_grains on the master into the minion's extension_modules/grains.\n\nReturns the grain modules added or changed, as `grains.<name>`; those the master no longer has are removed. Custom grains are computed once per process: new job processes (and salt-call) see them, the minion's own grains (reported to the master for targeting) at its next start.\n\nCLI Example: salt '*' saltutil.sync_grains",
      { clean_pillar_cache: true },
    ),
    sync_returners: syncFunction(
      'returners',
      "Sync returners from salt://_returners on the master into the minion's extension_modules/returners.\n\nReturns the returners added or changed, as `returners.<name>`; those the master no longer has are removed. New job processes load them (`salt --return <name>`).\n\nCLI Example: salt '*' saltutil.sync_returners",
    ),
    sync_matchers: syncFunction(
      'matchers',
      "Sync matchers from salt://_matchers on the master into the minion's extension_modules/matchers.\n\nReturns the matchers added or changed, as `matchers.<name>`; those the master no longer has are removed. A matcher named after a target type (glob, grain, compound, ...) takes its place on this minion; with refresh=True the minion loads them at once.\n\nCLI Example: salt '*' saltutil.sync_matchers",
      { refresh: false },
    ),
    cmd: defineFunction({
      args: z.object({
        tgt: z.union([z.string(), z.array(z.string())]),
        fun: z.string(),
        arg: z.array(z.unknown()).default([]),
        timeout: z.number().nullish(),
        tgt_type: z.string().default('glob'),
        ret: z.string().default(''),
        kwarg: z.record(z.string(), z.unknown()).nullish(),
      }),
      varkw: true,
      doc: "Assuming this minion is on the master's host, publish a salt command through the master (its config read from the `master` file beside the minion's).\n\nCLI Example: salt '*' saltutil.cmd",
      run: async (ctx, a) =>
        (await masterFunctions()).masterCmd(ctx, a.tgt, a.fun, {
          arg: a.arg,
          kwarg: a.kwarg ?? {},
          tgt_type: a.tgt_type,
          ...(a.timeout !== undefined && a.timeout !== null && { timeout: a.timeout }),
        }),
    }),
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
        const kwargs: Record<string, unknown> = { ...(a.kwarg ?? {}), ...publicKwargs(extra.kwargs) };
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
          kwargs: publicKwargs(extra.kwargs),
          user: 'UNKNOWN',
        }),
    }),
    sync_all: defineFunction({
      args: syncArgs.extend({ clean_pillar_cache: z.boolean().default(false) }),
      doc: "Sync every kind of extension from the master; tsalt syncs execution modules (salt://_modules), state modules (salt://_states), sdb drivers (salt://_sdb), grain modules (salt://_grains), returners (salt://_returners) and matchers (salt://_matchers), the other kinds are empty.\n\nCLI Example: salt '*' saltutil.sync_all",
      run: async (ctx, args) => {
        const modules = await syncExtForm(ctx, args, 'modules');
        const states = await syncExtForm(ctx, args, 'states');
        const sdb = await syncExtForm(ctx, args, 'sdb');
        const grains = await syncExtForm(ctx, args, 'grains');
        const returners = await syncExtForm(ctx, args, 'returners');
        const matchers = await syncExtForm(ctx, args, 'matchers');
        const link = ctx.master;
        if (args.refresh || sdb.touched) link?.recycle();
        const ret: Record<string, string[]> = {};
        for (const form of SYNC_ALL_FORMS) ret[form] = [];
        ret.modules = withNote(modules.changed, modules.touched, link);
        ret.states = withNote(states.changed, states.touched, link);
        ret.sdb = withNote(sdb.changed, sdb.touched, link);
        ret.grains = withNote(grains.changed, grains.touched, link);
        ret.returners = withNote(returners.changed, returners.touched, link);
        ret.matchers = withNote(matchers.changed, matchers.touched, link);
        // a masterless minion also syncs pillar modules in Salt; tsalt has none to sync
        if (ctx.opts.file_client === 'local') ret.pillar = [];
        return ret;
      },
    }),
    refresh_modules: defineFunction({
      varkw: true,
      doc: "Make the minion load its execution modules anew for the next jobs (new job processes).\n\nCLI Example: salt '*' saltutil.refresh_modules",
      run: (ctx) => refreshModules(ctx),
    }),
    refresh_pillar: refreshPillar,
    pillar_refresh: refreshPillar,
    kill_all_jobs: defineFunction({
      doc: 'Send a kill signal (SIGKILL 9) to all currently running jobs.',
      run: (ctx) => running(ctx).map((d) => signalJob(ctx, String(d.jid), SIGKILL)),
    }),
  },
});
