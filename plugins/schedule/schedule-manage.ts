/**
 * The `manage_schedule` calls a Salt minion serves to its schedule module (`Minion.manage_schedule`
 * and the `Schedule` methods behind it): each changes or reads the scheduler and answers what
 * Salt's `..._complete` event carries (`{complete, schedule}`, `{complete, next_fire_time}`,
 * `{complete, data}`). The answer may name the event to fire (`event`: the tag's last part, as
 * `schedule_add_complete`), whose data holds the configured jobs only: pillar jobs stay off the
 * bus. tsalt checks an added or modified job first and answers `errors` instead of adding it.
 */
import { DEFAULT_TIME_FMT, strftime } from './dates.js';
import type { ScheduleMap, Scheduler } from './scheduler.js';

export interface ManageAnswer {
  complete: boolean;
  schedule?: ScheduleMap;
  next_fire_time?: string | null;
  data?: Record<string, unknown>;
  /** Why an added or modified job was refused. */
  errors?: string[];
  /** The event the minion fires for this call (tag suffix), with `complete` and the configured schedule. */
  event?: string;
}

const isMap = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The schedule as the complete events carry it: each job with its `name`. */
function listing(entries: Map<string, unknown>): ScheduleMap {
  const out: ScheduleMap = {};
  for (const [k, v] of entries) out[k] = isMap(v) ? { ...v, name: v.name ?? k } : v;
  return out;
}

function fmtTime(ms: number | undefined, fmt: string): string | null {
  return ms === undefined ? null : strftime(ms, fmt);
}

/** Salt's `job_status` data: the job's options, then its runtime fields. */
function jobStatus(s: Scheduler, name: string, fmt: string): Record<string, unknown> {
  const job = s.merged().get(name);
  if (!isMap(job)) return {};
  const rt = s.runtime(name);
  const out: Record<string, unknown> = { ...job, name: job.name ?? name };
  out._next_fire_time = fmtTime(rt.next, fmt);
  out._splay = fmtTime(rt.splayAt, fmt);
  if (rt.seconds !== undefined) out._seconds = rt.seconds;
  out._next_scheduled_fire_time = fmtTime(rt.scheduledNext, fmt);
  if (rt.lastRun !== undefined) out._last_run = fmtTime(rt.lastRun, fmt);
  if (rt.skipped) {
    out._skipped = true;
    out._skip_reason = rt.skipped.reason;
    out._skipped_time = fmtTime(rt.skipped.time, fmt);
  }
  if (!('splay' in out)) out.splay = null;
  return out;
}

function appendTimes(
  job: Record<string, unknown>,
  key: string,
  time: unknown,
  fmt: string,
): Record<string, unknown> {
  const list = Array.isArray(job[key]) ? [...(job[key] as unknown[])] : [];
  list.push({ time, time_fmt: fmt });
  return { ...job, [key]: list };
}

/** Serves one `manage_schedule` call (`data.func` names it). */
export async function manageSchedule(
  s: Scheduler,
  data: Readonly<Record<string, unknown>>,
): Promise<ManageAnswer> {
  const name = typeof data.name === 'string' ? data.name : String(data.name ?? '');
  const persist = data.persist !== false;
  const opts = s.merged('opts');
  const done = async (event: string, save = persist): Promise<ManageAnswer> => {
    if (save) await s.persist();
    return { complete: true, schedule: listing(s.merged()), event };
  };
  switch (data.func) {
    case 'list': {
      const where = data.where === 'opts' || data.where === 'pillar' ? data.where : undefined;
      return { complete: true, schedule: listing(s.merged(where)), event: 'schedule_list_complete' };
    }
    case 'add': {
      const entry = isMap(data.schedule) ? data.schedule : {};
      const [jobName, raw] = Object.entries(entry)[0] ?? [name, undefined];
      const job = isMap(raw) ? { ...raw } : raw;
      if (isMap(job) && !('enabled' in job)) job.enabled = true;
      const errors = s.errorsOf(jobName, job);
      if (errors.length > 0) return { complete: true, schedule: listing(s.merged()), errors };
      if (s.fromPillar(jobName))
        return {
          complete: true,
          schedule: listing(s.merged()),
          errors: [`Cannot update job ${jobName}, it's in the pillar!`],
        };
      s.set(jobName, job);
      return done('schedule_add_complete');
    }
    case 'modify': {
      const job = isMap(data.schedule) ? { ...data.schedule } : data.schedule;
      const errors = s.errorsOf(name, job);
      if (errors.length > 0) return { complete: true, schedule: listing(s.merged()), errors };
      if (!opts.has(name))
        return {
          complete: true,
          schedule: listing(s.merged()),
          errors: [`Cannot modify job ${name}, it's in the pillar!`],
        };
      s.set(name, undefined);
      s.set(name, job);
      return done('schedule_add_complete');
    }
    case 'delete':
      if (opts.has(name)) s.set(name, undefined);
      return done('schedule_delete_complete');
    case 'enable_job':
    case 'disable_job': {
      const job = opts.get(name);
      if (isMap(job)) s.set(name, { ...job, enabled: data.func === 'enable_job' }, true);
      return done(
        data.func === 'enable_job' ? 'schedule_enabled_job_complete' : 'schedule_disabled_job_complete',
      );
    }
    case 'enable':
    case 'disable':
      s.set('enabled', data.func === 'enable', true);
      return done(data.func === 'enable' ? 'schedule_enabled_complete' : 'schedule_disabled_complete');
    case 'run_job':
      s.runNow(name);
      return { complete: true };
    case 'save_schedule':
      await s.persist();
      return { complete: true, event: 'schedule_saved' };
    case 'reload':
      s.reload(isMap(data.schedule) ? data.schedule : {});
      return { complete: true, schedule: listing(s.merged()) };
    case 'postpone_job':
    case 'skip_job': {
      const fmt = typeof data.time_fmt === 'string' ? data.time_fmt : DEFAULT_TIME_FMT;
      const job = opts.get(name);
      if (isMap(job)) {
        let next = appendTimes(job, 'skip_explicit', data.time, fmt);
        if (data.func === 'postpone_job') next = appendTimes(next, 'run_explicit', data.new_time, fmt);
        s.set(name, next, true);
      }
      return {
        complete: true,
        schedule: listing(s.merged()),
        event: data.func === 'postpone_job' ? 'schedule_postpone_job_complete' : 'schedule_skip_job_complete',
      };
    }
    case 'get_next_fire_time': {
      const fmt = typeof data.time_fmt === 'string' ? data.time_fmt : DEFAULT_TIME_FMT;
      return { complete: true, next_fire_time: fmtTime(s.runtime(name).next, fmt) };
    }
    case 'job_status': {
      const fmt = typeof data.time_fmt === 'string' ? data.time_fmt : DEFAULT_TIME_FMT;
      return { complete: true, data: jobStatus(s, name, fmt) };
    }
    default:
      return { complete: false, errors: [`unknown schedule function ${String(data.func)}`] };
  }
}
