/**
 * The schedule module's pure parts (Salt's `salt/modules/schedule.py`): a job built from
 * `schedule.add`'s keywords (`build_schedule_item`), the listing filter of `schedule.list`,
 * and the saved schedule file read and written offline.
 */
import { SaltFloat } from '../kernel/util.js';
import { DEFAULT_TIME_FMT, SCHEDULE_CONF, strptime } from '../plugins/schedule/index.js';

export type Ret = Record<string, unknown>;

// a whole float (`splay=2.0`) is a number, not a mapping
const isMap = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof SaltFloat);

const TIME = ['seconds', 'minutes', 'hours', 'days'];

/** Salt's time-option conflict: an interval with `when` or `cron`. */
export function timeConflict(kwargs: Readonly<Record<string, unknown>>): boolean {
  return TIME.some((k) => k in kwargs && ('when' in kwargs || 'cron' in kwargs));
}

/** Salt's `build_schedule_item`: the job, or `{comment, result: false}` (the checks Salt makes). */
export function buildScheduleItem(
  name: string,
  kwargs: Readonly<Record<string, unknown>>,
  validWhen: (when: unknown) => boolean,
): { job: Ret } | { error: Ret } {
  if (!name) return { error: { comment: 'Job name is required.', result: false } };
  if (!('function' in kwargs) || kwargs.function === null || kwargs.function === undefined)
    return { error: { comment: `Job ${name} needs a function (function=module.name).`, result: false } };
  const job: Ret = { function: kwargs.function };
  if (timeConflict(kwargs))
    return {
      error: {
        comment: 'Unable to use "seconds", "minutes", "hours", or "days" with "when" or "cron" options.',
        result: false,
      },
    };
  if ('when' in kwargs && 'cron' in kwargs)
    return {
      error: { comment: 'Unable to use "when" and "cron" options together.  Ignoring.', result: false },
    };
  for (const k of TIME) if (k in kwargs) job[k] = kwargs[k];
  if ('return_job' in kwargs) job.return_job = kwargs.return_job;
  if ('metadata' in kwargs) job.metadata = kwargs.metadata;
  if ('job_args' in kwargs) {
    if (!Array.isArray(kwargs.job_args))
      return { error: { comment: 'job_args is not a list. please correct and try again.', result: false } };
    job.args = kwargs.job_args;
  }
  if ('job_kwargs' in kwargs) {
    if (!isMap(kwargs.job_kwargs))
      return { error: { comment: 'job_kwargs is not a dict. please correct and try again.', result: false } };
    job.kwargs = kwargs.job_kwargs;
  }
  job.maxrunning = 'maxrunning' in kwargs ? kwargs.maxrunning : 1;
  job.name = 'name' in kwargs ? kwargs.name : name;
  job.enabled = 'enabled' in kwargs ? kwargs.enabled : true;
  job.jid_include = 'jid_include' in kwargs ? kwargs.jid_include : true;
  if ('splay' in kwargs) {
    const s = kwargs.splay;
    job.splay = isMap(s) ? { start: s.start, end: s.end } : s;
  }
  if ('when' in kwargs) {
    const list = Array.isArray(kwargs.when) ? kwargs.when : [kwargs.when];
    for (const w of list) {
      if (!validWhen(w))
        return { error: { comment: `Schedule item ${String(w)} for "when" in invalid.`, result: false } };
    }
  }
  for (const k of [
    'range',
    'when',
    'once',
    'once_fmt',
    'cron',
    'returner',
    'after',
    'return_config',
    'return_kwargs',
    'until',
    'run_on_start',
    'skip_during_range',
  ]) {
    if (k in kwargs) job[k] = kwargs[k];
  }
  return { job };
}

const HIDDEN = ['enabled', 'skip_function', 'skip_during_range'];

/** Salt's `schedule.list` filter: hidden `__` jobs, options it does not list, `None` values, disabled jobs. */
export function filterListing(schedule: Ret, showAll: boolean, showDisabled: boolean): Ret {
  const out: Ret = {};
  for (const [name, raw] of Object.entries(schedule)) {
    if (HIDDEN.includes(name)) {
      out[name] = raw;
      continue;
    }
    if (name.startsWith('__') && !showAll) continue;
    if (!isMap(raw)) continue;
    const job: Ret = { ...raw };
    if (!('enabled' in job)) job.enabled = true;
    for (const [k, v] of Object.entries(job)) {
      if (!SCHEDULE_CONF.includes(k) || v === null || v === undefined) delete job[k];
      else if (v === 'true') job[k] = true;
      else if (v === 'false') job[k] = false;
    }
    if (!showDisabled && !job.enabled) continue;
    delete job._seconds;
    out[name] = job;
  }
  return out;
}

/** Whether `text` reads with `fmt` (Salt's `datetime.strptime` check). */
export function validTime(text: unknown, fmt: string = DEFAULT_TIME_FMT): boolean {
  return strptime(text, fmt) !== undefined;
}
