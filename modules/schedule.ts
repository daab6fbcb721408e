/**
 * Salt's `schedule` execution module (`salt/modules/schedule.py`): lists and changes the
 * minion's scheduler. As in Salt, each call goes to the minion's main process (Salt fires
 * `manage_schedule` on the minion's bus and waits for the `..._complete` event; tsalt's job
 * processes ask over their IPC link, `ctx.master.manageSchedule`) and answers Salt's
 * `{comment, result, changes}` from what comes back. Where no minion runs (`salt-call
 * --local`) the calls fail as Salt's do without a minion, and `offline=True` works on the
 * saved file (`minion.d/_schedule.conf`) directly.
 *
 * tsalt checks a job before adding it: an unknown option, a bad cron string or date, a
 * negative interval or a function the minion does not have is refused with the reason, where
 * Salt adds the job and skips it at each evaluation.
 */
import { defineFunction, defineModule } from '../kernel/index.js';
import { parseDate } from '../plugins/schedule/index.js';
import { pyFlag } from './_coerce.js';
import { cleanKwargs } from './_invalid-kwargs.js';
import { buildScheduleItem, type Ret, timeConflict } from './_schedule-build.js';
import { scheduleCalls } from './_schedule-calls.js';
import { current, listJobs, manage, missingFunction, whereIs, writeOffline } from './_schedule-client.js';

const isMap = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const nameArg = (z: typeof import('zod').z) => z.object({ name: z.string().nullish() });

export default defineModule({
  name: 'schedule',
  doc: "Module for managing the minion's scheduler.",
  functions: {
    list: defineFunction({
      pyName: 'list_',
      args: (z) =>
        z.object({
          show_all: pyFlag(z, false),
          show_disabled: pyFlag(z, true),
          where: z.unknown().optional(),
          return_yaml: pyFlag(z, true),
          offline: pyFlag(z, false),
        }),
      doc: 'List the jobs currently scheduled on the minion.\n\nreturn_yaml=False returns a mapping instead of YAML text.',
      run: (ctx, a) => listJobs(ctx, a),
    }),
    is_enabled: defineFunction({
      args: nameArg,
      doc: 'The schedule job `name`, or without a name whether the schedule is enabled.',
      run: async (ctx, { name }) => {
        const jobs = (await listJobs(ctx, {
          show_all: false,
          show_disabled: true,
          return_yaml: false,
          offline: false,
        })) as Ret;
        if (!name) return 'enabled' in jobs ? jobs.enabled : true;
        return jobs[name] ?? {};
      },
    }),
    add: defineFunction({
      args: (z) => z.object({ name: z.string().nullable() }),
      varkw: true,
      doc: "Add a job to the schedule: schedule.add job1 function='test.ping' seconds=3600",
      run: async (ctx, { name: rawName }, extra) => {
        const name = rawName ?? '';
        const kwargs = cleanKwargs(extra.kwargs);
        const offline = Boolean(kwargs.offline);
        const ret: Ret = { comment: `Failed to add job ${name} to schedule.`, result: false, changes: {} };
        const jobs = await current(ctx, undefined, offline);
        if (name in jobs) return { ...ret, comment: `Job ${name} already exists in schedule.` };
        if (timeConflict(kwargs))
          return {
            ...ret,
            comment:
              'Error: Unable to use "seconds", "minutes", "hours", or "days" with "when" or "cron" options.',
          };
        if ('when' in kwargs && 'cron' in kwargs)
          return { ...ret, comment: 'Unable to use "when" and "cron" options together.  Ignoring.' };
        const built = buildScheduleItem(name, kwargs, (w) => parseDate(w, Date.now()) !== undefined);
        if ('error' in built) return built.error;
        const missing = await missingFunction(ctx, built.job.function);
        if (missing) return { ...ret, comment: `Failed to add job ${name} to schedule: ${missing}` };
        if (kwargs.test) return { ...ret, comment: `Job: ${name} would be added to schedule.`, result: true };
        if (offline) {
          await writeOffline(ctx, { ...jobs, [name]: built.job }, name);
          return { comment: `Added job: ${name} to schedule.`, result: true, changes: { [name]: 'added' } };
        }
        const answer = await manage(ctx, {
          name,
          schedule: { [name]: built.job },
          func: 'add',
          persist: kwargs.persist ?? true,
        });
        if (Array.isArray(answer?.errors) && answer.errors.length > 0)
          return { ...ret, comment: `Failed to add job ${name} to schedule: ${answer.errors.join(' ')}` };
        if (answer?.complete && isMap(answer.schedule) && name in answer.schedule)
          return { comment: `Added job: ${name} to schedule.`, result: true, changes: { [name]: 'added' } };
        return ret;
      },
    }),
    build_schedule_item: defineFunction({
      args: (z) => z.object({ name: z.string().nullable() }),
      varkw: true,
      doc: "Build a schedule job: schedule.build_schedule_item job1 function='test.ping' seconds=3600",
      run: (_ctx, { name }, extra) => {
        const built = buildScheduleItem(
          name ?? '',
          cleanKwargs(extra.kwargs),
          (w) => parseDate(w, Date.now()) !== undefined,
        );
        if ('error' in built) return built.error;
        return built.job;
      },
    }),
    modify: defineFunction({
      args: (z) => z.object({ name: z.string().nullable() }),
      varkw: true,
      doc: "Modify an existing job in the schedule: schedule.modify job1 function='test.ping' seconds=3600",
      run: async (ctx, { name: rawName }, extra) => {
        const name = rawName ?? '';
        const kwargs = cleanKwargs(extra.kwargs);
        const offline = Boolean(kwargs.offline);
        const ret: Ret = { comment: '', changes: {}, result: true };
        if (timeConflict(kwargs))
          return {
            ...ret,
            result: false,
            comment: 'Error: Unable to use "seconds", "minutes", "hours", or "days" with "when" option.',
          };
        if ('when' in kwargs && 'cron' in kwargs)
          return {
            ...ret,
            result: false,
            comment: 'Unable to use "when" and "cron" options together.  Ignoring.',
          };
        const jobs = await current(ctx, undefined, offline);
        const old = jobs[name];
        if (!isMap(old)) return { ...ret, comment: `Job ${name} does not exist in schedule.`, result: false };
        if (!('function' in kwargs)) kwargs.function = old.function;
        const built = buildScheduleItem(name, kwargs, (w) => parseDate(w, Date.now()) !== undefined);
        if ('error' in built) return built.error;
        const job = built.job;
        if (JSON.stringify(job) === JSON.stringify(old))
          return { ...ret, comment: `Job ${name} in correct state` };
        ret.changes = { [name]: { old, new: job } };
        if (kwargs.test) return { ...ret, comment: `Job: ${name} would be modified in schedule.` };
        if (offline) {
          await writeOffline(ctx, { ...jobs, [name]: job });
          return { ...ret, comment: `Modified job: ${name} in schedule.` };
        }
        const where = await whereIs(ctx, name);
        const answer = await manage(ctx, {
          name,
          schedule: job,
          func: 'modify',
          persist: where === 'pillar' ? false : (kwargs.persist ?? true),
          ...(where === 'pillar' ? { where: 'pillar' } : {}),
        });
        if (Array.isArray(answer?.errors) && answer.errors.length > 0)
          return {
            ...ret,
            changes: {},
            result: false,
            comment: `Failed to modify job ${name} in schedule: ${answer.errors.join(' ')}`,
          };
        if (!answer) return { ...ret, result: false, comment: `Failed to modify job ${name} in schedule.` };
        return { ...ret, comment: `Modified job: ${name} in schedule.` };
      },
    }),
    ...scheduleCalls,
  },
});
