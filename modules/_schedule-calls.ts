/**
 * The schedule module's calls past listing and adding (Salt's `salt/modules/schedule.py`):
 * delete, purge, enable/disable a job or the schedule, run_job, save, reload, postpone_job,
 * skip_job, show_next_fire_time, job_status, copy and move. Each answers what Salt answers,
 * key order included.
 */
import { defineFunction, type ExecContext, type FunctionSpec } from '../kernel/index.js';
import { DEFAULT_TIME_FMT } from '../plugins/schedule/index.js';
import { pyFlag } from './_coerce.js';
import { cleanKwargs } from './_invalid-kwargs.js';
import { type Ret, validTime } from './_schedule-build.js';
import { current, manage, saved, whereIs, writeOffline } from './_schedule-client.js';

const isMap = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const withName = (z: typeof import('zod').z) => z.object({ name: z.string().nullable() });

/** A call Salt answers from the `{complete, schedule}` it gets back. */
async function scheduleAfter(ctx: ExecContext, call: Ret): Promise<Ret | undefined> {
  const answer = await manage(ctx, call);
  return answer?.complete && isMap(answer.schedule) ? answer.schedule : undefined;
}

function toggleJob(enable: boolean): FunctionSpec {
  const verb = enable ? 'enable' : 'disable';
  const past = enable ? 'Enabled' : 'Disabled';
  return defineFunction({
    args: withName,
    varkw: true,
    doc: `${enable ? 'Enable' : 'Disable'} a job in the minion's schedule: schedule.${verb}_job job1`,
    run: async (ctx, { name: raw }, extra) => {
      const name = raw ?? 'None'; // Salt's messages show a None name as 'None'
      const kwargs = cleanKwargs(extra.kwargs);
      const ret: Ret = { comment: [], result: true, changes: {} };
      if (!raw) Object.assign(ret, { comment: 'Job name is required.', result: false });
      if (kwargs.test || ctx.opts.test)
        return { ...ret, comment: `Job: ${name} would be ${verb}d in schedule.` };
      const where = await whereIs(ctx, name);
      if (!where) return { ...ret, comment: `Job ${name} does not exist.`, result: false };
      const call: Ret = {
        name,
        func: `${verb}_job`,
        persist: where === 'pillar' ? false : (kwargs.persist ?? true),
      };
      if (where === 'pillar') call.where = 'pillar';
      const schedule = await scheduleAfter(ctx, call);
      if (!schedule) return { ...ret, comment: `Event module not available. Schedule enable job failed.` };
      const job = schedule[name];
      if (isMap(job) && Boolean(job.enabled) === enable)
        return {
          ...ret,
          result: true,
          comment: `${past} Job ${name} in schedule.`,
          changes: { [name]: `${verb}d` },
        };
      return { ...ret, result: false, comment: `Failed to ${verb} job ${name} in schedule.` };
    },
  });
}

function toggleSchedule(enable: boolean): FunctionSpec {
  const verb = enable ? 'enable' : 'disable';
  return defineFunction({
    varkw: true,
    doc: `${enable ? 'Enable' : 'Disable'} all scheduled jobs on the minion: schedule.${verb}`,
    run: async (ctx, _a, extra) => {
      const kwargs = cleanKwargs(extra.kwargs);
      const ret: Ret = { comment: [], changes: {}, result: true };
      if (kwargs.test) return { ...ret, comment: `Schedule would be ${verb}d.` };
      const schedule = await scheduleAfter(ctx, { func: verb, persist: kwargs.persist ?? true });
      if (!schedule) return { ...ret, comment: `Event module not available. Schedule ${verb} job failed.` };
      if ('enabled' in schedule && Boolean(schedule.enabled) === enable)
        return {
          ...ret,
          comment: `${enable ? 'Enabled' : 'Disabled'} schedule on minion.`,
          changes: { schedule: `${verb}d` },
        };
      return { ...ret, result: false, comment: `Failed to ${verb} schedule on minion.` };
    },
  });
}

/** postpone_job and skip_job: a time (and a new time) checked with `time_fmt`, then the call. */
function retime(postpone: boolean): FunctionSpec {
  const func = postpone ? 'postpone_job' : 'skip_job';
  return defineFunction({
    args: (z) =>
      postpone
        ? z.object({ name: z.string().nullable(), current_time: z.unknown(), new_time: z.unknown() })
        : z.object({ name: z.string().nullable(), current_time: z.unknown() }),
    varkw: true,
    doc: postpone
      ? "Postpone a job in the minion's schedule: schedule.postpone_job job current_time new_time (format %Y-%m-%dT%H:%M:%S, or time_fmt=...)"
      : "Skip a job in the minion's schedule at a time: schedule.skip_job job time (format %Y-%m-%dT%H:%M:%S, or time_fmt=...)",
    run: async (ctx, a, extra) => {
      const kwargs = cleanKwargs(extra.kwargs);
      const fmt = typeof kwargs.time_fmt === 'string' && kwargs.time_fmt ? kwargs.time_fmt : DEFAULT_TIME_FMT;
      const name = a.name ?? 'None';
      const newTime = (a as { new_time?: unknown }).new_time;
      const ret: Ret = { comment: [], result: true };
      const bad = { comment: 'Date string could not be parsed.', result: false };
      if (!a.name) {
        if (postpone) return { comment: 'Job name is required.', result: false };
        Object.assign(ret, { comment: 'Job name is required.', result: false });
      }
      if (!a.current_time) {
        if (postpone) return { comment: 'Job current time is required.', result: false };
        Object.assign(ret, { comment: 'Job time is required.', result: false });
      } else if (!validTime(a.current_time, fmt)) return bad;
      if (postpone) {
        if (!newTime) return { comment: 'Job new_time is required.', result: false };
        if (!validTime(newTime, fmt)) return bad;
      }
      if (ctx.opts.test)
        return {
          ...ret,
          comment: `Job: ${name} would be ${postpone ? 'postponed' : 'skipped'} in schedule.`,
        };
      const where = await whereIs(ctx, name);
      if (!where) return { ...ret, comment: `Job ${name} does not exist.`, result: false };
      const call: Ret = { name, time: a.current_time, time_fmt: fmt, func };
      if (postpone) call.new_time = newTime;
      if (where === 'pillar') call.where = 'pillar';
      const schedule = await scheduleAfter(ctx, call);
      if (!schedule)
        return {
          ...ret,
          comment: `Event module not available. Schedule ${postpone ? 'postpone' : 'skip'} job failed.`,
        };
      const job = schedule[name];
      if (isMap(job) && job.enabled !== false)
        return {
          ...ret,
          result: true,
          comment: postpone ? `Postponed Job ${name} in schedule.` : `Added Skip Job ${name} in schedule.`,
        };
      return {
        ...ret,
        result: false,
        comment: `Failed to ${postpone ? 'postpone' : 'skip'} job ${name} in schedule.`,
      };
    },
  });
}

/** schedule.copy and schedule.move: the job published to other minions' schedule.add (peer publish). */
function sendTo(move: boolean): FunctionSpec {
  return defineFunction({
    args: (z) => z.object({ name: z.string().nullable(), target: z.string() }),
    varkw: true,
    doc: move
      ? 'Move a scheduled job to another minion or minions: schedule.move jobname target'
      : 'Copy a scheduled job to another minion or minions: schedule.copy jobname target',
    run: async (ctx, { name: raw, target }, extra) => {
      const name = raw ?? 'None'; // Salt's messages show a None name as 'None'
      const ret: Ret = { comment: [], result: true };
      if (!raw) Object.assign(ret, { comment: 'Job name is required.', result: false });
      if (cleanKwargs(extra.kwargs).test)
        return { ...ret, comment: `Job: ${name} would be ${move ? 'moved' : 'copied'} from schedule.` };
      const opts = await current(ctx, 'opts');
      const pillar = await current(ctx, 'pillar');
      const job = (opts[name] ?? pillar[name]) as Ret | undefined;
      if (!isMap(job)) return { ...ret, comment: `Job ${name} does not exist.`, result: false };
      const where = name in opts ? undefined : 'pillar';
      const jobOpts = Object.entries(job).map(
        ([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`,
      );
      let response: unknown;
      try {
        response = await ctx.call('publish.publish', [target, 'schedule.add', jobOpts]);
      } catch (err) {
        return {
          ...ret,
          result: false,
          comment: `Failed to ${move ? 'move' : 'copy'} job ${name}: ${(err as Error).message}`,
        };
      }
      const answers = isMap(response) ? response : {};
      const minions = Object.keys(answers);
      const errors = minions.filter((m) => !answers[m]);
      if (minions.length === 0)
        return { ...ret, comment: 'no servers answered the published schedule.add command' };
      if (errors.length > 0)
        return { ...ret, comment: 'the following minions return False', minions: errors };
      if (move)
        await manage(ctx, { name, func: 'delete', persist: where !== 'pillar', ...(where ? { where } : {}) });
      return {
        ...ret,
        result: true,
        comment: move ? `Moved Job ${name} from schedule.` : `Copied Job ${name} from schedule to minion(s).`,
        minions,
      };
    },
  });
}

export const scheduleCalls: Record<string, FunctionSpec> = {
  delete: defineFunction({
    args: withName,
    varkw: true,
    doc: "Delete a job from the minion's schedule: schedule.delete job1",
    run: async (ctx, { name: raw }, extra) => {
      const name = raw ?? 'None'; // Salt's messages show a None name as 'None'
      const kwargs = cleanKwargs(extra.kwargs);
      const ret: Ret = { comment: `Failed to delete job ${name} from schedule.`, result: false, changes: {} };
      if (!raw) ret.comment = 'Job name is required.';
      if (kwargs.test)
        return { ...ret, comment: `Job: ${name} would be deleted from schedule.`, result: true };
      if (kwargs.offline) {
        const jobs = await current(ctx, 'opts', true);
        delete jobs[name];
        await writeOffline(ctx, jobs);
        return {
          ...ret,
          result: true,
          comment: `Deleted Job ${name} from schedule.`,
          changes: { [name]: 'removed' },
        };
      }
      const where = await whereIs(ctx, name);
      if (!where) return { ...ret, comment: `Job ${name} does not exist.` };
      const call: Ret =
        where === 'opts'
          ? { name, func: 'delete', persist: kwargs.persist ?? true }
          : { name, where: 'pillar', func: 'delete', persist: false };
      const schedule = await scheduleAfter(ctx, call);
      if (!schedule) return ret;
      if (name in schedule) return { ...ret, comment: `Failed to delete job ${name} from schedule.` };
      return {
        ...ret,
        result: true,
        comment: `Deleted Job ${name} from schedule.`,
        changes: { [name]: 'removed' },
      };
    },
  }),
  purge: defineFunction({
    varkw: true,
    doc: 'Purge all the jobs currently scheduled on the minion: schedule.purge',
    run: async (ctx, _a, extra) => {
      const kwargs = cleanKwargs(extra.kwargs);
      const offline = Boolean(kwargs.offline);
      const ret: Ret = { comment: [] as string[], changes: {} as Ret, result: true };
      const comments = ret.comment as string[];
      const changes = ret.changes as Ret;
      const jobs = await current(ctx, undefined, offline);
      for (const name of Object.keys(jobs)) {
        if (name === 'enabled' || name.startsWith('__')) continue;
        if (kwargs.test) {
          comments.push(`Job: ${name} would be deleted from schedule.`);
        } else if (offline) {
          delete jobs[name];
          comments.push(`Deleted job: ${name} from schedule.`);
          changes[name] = 'removed';
        } else {
          const schedule = await scheduleAfter(ctx, {
            name,
            func: 'delete',
            persist: kwargs.persist ?? true,
          });
          if (schedule && !(name in schedule)) {
            changes[name] = 'removed';
            comments.push(`Deleted job: ${name} from schedule.`);
          } else if (schedule) comments.push(`Failed to delete job ${name} from schedule.`);
        }
      }
      if (offline) await writeOffline(ctx, jobs);
      return ret;
    },
  }),
  enable_job: toggleJob(true),
  disable_job: toggleJob(false),
  enable: toggleSchedule(true),
  disable: toggleSchedule(false),
  run_job: defineFunction({
    args: (z) => z.object({ name: z.string().nullable(), force: pyFlag(z, false) }),
    doc: 'Run a scheduled job on the minion immediately: schedule.run_job job1 [force=True]',
    run: async (ctx, { name: raw, force }) => {
      const name = raw ?? 'None'; // Salt's messages show a None name as 'None'
      const ret: Ret = { comment: [], result: true };
      if (!raw) Object.assign(ret, { comment: 'Job name is required.', result: false });
      const jobs = await current(ctx);
      const job = jobs[name];
      if (!isMap(job)) return { ...ret, comment: `Job ${name} does not exist.`, result: false };
      if ('enabled' in job && !job.enabled && !force) return { ...ret, comment: `Job ${name} is disabled.` };
      const answer = await manage(ctx, { name, func: 'run_job' });
      if (answer) return { ...ret, comment: `Scheduling Job ${name} on minion.` };
      return { ...ret, comment: `Failed to run job ${name} on minion.`, result: false };
    },
  }),
  save: defineFunction({
    varkw: true,
    doc: 'Save all scheduled jobs on the minion: schedule.save',
    run: async (ctx, _a, extra) => {
      const ret: Ret = { comment: [], result: true };
      if (cleanKwargs(extra.kwargs).test) return { ...ret, comment: 'Schedule would be saved.' };
      const answer = await manage(ctx, { func: 'save_schedule' });
      if (!answer) return { ...ret, comment: 'Event module not available. Schedule save failed.' };
      if (answer.complete) return { ...ret, result: true, comment: 'Schedule (non-pillar items) saved.' };
      return { ...ret, result: false, comment: 'Failed to save schedule.' };
    },
  }),
  reload: defineFunction({
    pyName: 'reload_',
    doc: 'Reload saved scheduled jobs on the minion: schedule.reload',
    run: async (ctx) => {
      const ret: Ret = { comment: [] as string[], result: true };
      const comments = ret.comment as string[];
      const schedule = await saved(ctx);
      if (Object.keys(schedule).length === 0) return ret;
      const answer = await manage(ctx, { func: 'reload', schedule: { schedule } });
      if (answer) comments.push('Reloaded schedule on minion from schedule.conf.');
      else {
        comments.push('Failed to reload schedule on minion from schedule.conf.');
        ret.result = false;
      }
      return ret;
    },
  }),
  postpone_job: retime(true),
  skip_job: retime(false),
  show_next_fire_time: defineFunction({
    args: withName,
    varkw: true,
    doc: 'Show the next fire time of a scheduled job: schedule.show_next_fire_time job_name',
    run: async (ctx, { name }) => {
      const ret: Ret = { result: true };
      if (!name) Object.assign(ret, { comment: 'Job name is required.', result: false });
      const answer = await manage(ctx, { name, func: 'get_next_fire_time' });
      if (!answer)
        return { comment: 'Event module not available. Schedule show next fire time failed.', result: true };
      if ('next_fire_time' in answer) ret.next_fire_time = answer.next_fire_time;
      else ret.comment = 'next fire time not available.';
      return ret;
    },
  }),
  job_status: defineFunction({
    args: (z) => z.object({ name: z.string().nullable(), time_fmt: z.string().default(DEFAULT_TIME_FMT) }),
    doc: 'Show the information of a scheduled job: schedule.job_status job_name',
    run: async (ctx, { name, time_fmt }) => {
      const answer = await manage(ctx, { func: 'job_status', name, fire_event: true, time_fmt });
      if (!answer) return { comment: 'Event module not available. Schedule list failed.', result: true };
      return isMap(answer.data) ? answer.data : {};
    },
  }),
  copy: sendTo(false),
  move: sendTo(true),
};
