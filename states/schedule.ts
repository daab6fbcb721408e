/**
 * Salt's `schedule` state module (`salt/states/schedule.py`): a job present in, absent from,
 * enabled or disabled in the minion's schedule. Each state reads the schedule with
 * `schedule.list` and changes it through the `schedule` execution module, so a change reaches
 * a running minion the way `schedule.add` does (the job process asks the minion's main
 * process, which saves `minion.d/_schedule.conf` unless `persist=False`); `offline=True`
 * works on the saved file alone, as where no minion runs (`salt-call --local`).
 */
import { isDeepStrictEqual } from 'node:util';
import { cleanKwargs } from '../modules/_invalid-kwargs.js';
import {
  defineState,
  defineStateModule,
  type StateContext,
  type StateReturn,
} from '../plugins/states/index.js';

type Ret = Record<string, unknown>;

const isMap = (v: unknown): v is Ret => typeof v === 'object' && v !== null && !Array.isArray(v);

const nameArg = (z: typeof import('zod').z) => z.object({ name: z.string() });

/** `schedule.list(show_all=True, return_yaml=False[, offline=...])`. */
async function currentJobs(ctx: StateContext, offline?: unknown): Promise<Ret> {
  const kw: Ret = { show_all: true, return_yaml: false };
  if (offline !== undefined) kw.offline = offline;
  const jobs = await ctx.call('schedule.list', [], kw);
  return isMap(jobs) ? jobs : {};
}

/** An execution-module answer as Salt's `{comment, result, changes}` mapping. */
async function callRet(ctx: StateContext, fun: string, name: string, kwargs: Ret): Promise<Ret> {
  const out = await ctx.call(fun, [name], kwargs);
  return isMap(out) ? out : { result: false, comment: String(out) };
}

const commentOf = (r: Ret): string | string[] =>
  Array.isArray(r.comment) ? (r.comment as string[]) : String(r.comment ?? '');

/** The states `absent`, `enabled` and `disabled`: one execution-module call on a listed job. */
function onListedJob(opts: {
  fun: string;
  done: (name: string) => string;
  missing: (name: string) => string;
  withChanges: boolean;
  failChanges: boolean;
  offlineList: boolean;
  doc: string;
}) {
  return defineState({
    args: nameArg,
    varkw: true,
    doc: opts.doc,
    async run(ctx, { name }, extra): Promise<StateReturn> {
      const kwargs = cleanKwargs(extra.kwargs);
      const ret: StateReturn = { name, result: true, changes: {}, comment: '' };
      const jobs = await currentJobs(ctx, opts.offlineList ? kwargs.offline : undefined);
      if (!(name in jobs)) return { ...ret, comment: opts.missing(name) };
      if (ctx.test) {
        const result = await callRet(ctx, opts.fun, name, { ...kwargs, test: true });
        return { ...ret, comment: commentOf(result) };
      }
      const result = await callRet(ctx, opts.fun, name, kwargs);
      if (!result.result) {
        const failed: StateReturn = { ...ret, result: result.result as boolean, comment: commentOf(result) };
        if (opts.failChanges) failed.changes = isMap(result.changes) ? result.changes : {};
        return failed;
      }
      if (opts.withChanges) ret.changes = isMap(result.changes) ? result.changes : {};
      return { ...ret, comment: opts.done(name) };
    },
  });
}

export default defineStateModule({
  name: 'schedule',
  doc: "Management of the Salt scheduler: jobs present, absent, enabled or disabled in the minion's schedule.",
  functions: {
    present: defineState({
      args: nameArg,
      varkw: true,
      doc: "Ensure a job is present in the schedule, as the keywords build it (schedule.add's: function, seconds, minutes, hours, days, when, cron, job_args, job_kwargs, splay, range, once, enabled, returner, persist, offline, ...).",
      async run(ctx, { name }, extra): Promise<StateReturn> {
        const kwargs = cleanKwargs(extra.kwargs);
        const ret: StateReturn = { name, result: true, changes: {}, comment: '' };
        const jobs = await currentJobs(ctx, kwargs.offline);
        if (name in jobs) {
          const built = await ctx.call('schedule.build_schedule_item', [name], kwargs);
          if (isMap(built)) {
            if ('result' in built && !built.result)
              return { ...ret, result: built.result as boolean, comment: commentOf(built) };
            if (!('enabled' in built)) built.enabled = true;
          }
          if (isDeepStrictEqual(built, jobs[name]))
            return { ...ret, comment: `Job ${name} in correct state` };
          if (ctx.test) {
            const result = await callRet(ctx, 'schedule.modify', name, { ...kwargs, test: true });
            return {
              ...ret,
              comment: commentOf(result),
              changes: isMap(result.changes) ? result.changes : {},
            };
          }
          const result = await callRet(ctx, 'schedule.modify', name, kwargs);
          if (!result.result) return { ...ret, result: result.result as boolean, comment: commentOf(result) };
          return {
            ...ret,
            comment: `Modifying job ${name} in schedule`,
            changes: isMap(result.changes) ? result.changes : {},
          };
        }
        if (ctx.test) {
          const result = await callRet(ctx, 'schedule.add', name, { ...kwargs, test: true });
          return { ...ret, comment: commentOf(result) };
        }
        const result = await callRet(ctx, 'schedule.add', name, kwargs);
        if (!result.result) return { ...ret, result: result.result as boolean, comment: commentOf(result) };
        return {
          ...ret,
          comment: `Adding new job ${name} to schedule`,
          changes: isMap(result.changes) ? result.changes : {},
        };
      },
    }),
    absent: onListedJob({
      fun: 'schedule.delete',
      done: (n) => `Removed job ${n} from schedule`,
      missing: (n) => `Job ${n} not present in schedule`,
      withChanges: true,
      failChanges: false,
      offlineList: true,
      doc: 'Ensure a job is absent from the schedule (persist, offline).',
    }),
    enabled: onListedJob({
      fun: 'schedule.enable_job',
      done: (n) => `Enabled job ${n} from schedule`,
      missing: (n) => `Job ${n} not present in schedule`,
      withChanges: false,
      failChanges: true,
      offlineList: false,
      doc: 'Ensure a job is enabled in the schedule (persist).',
    }),
    disabled: onListedJob({
      fun: 'schedule.disable_job',
      done: (n) => `Disabled job ${n} from schedule`,
      missing: (n) => `Job ${n} not present in schedule`,
      withChanges: false,
      failChanges: false,
      offlineList: true,
      doc: 'Ensure a job is disabled in the schedule (persist, offline).',
    }),
  },
});
