/**
 * What a schedule entry may hold, and the checks tsalt makes before it schedules one. Salt
 * finds most mistakes only when it evaluates the job, and then skips it quietly at each loop;
 * tsalt makes the same checks once, up front, so `schedule.add` can refuse the job and the log
 * says why once. The messages are Salt's where Salt has one.
 */
import { pyStr, SaltFloat } from '../../kernel/util.js';
import { parseCron } from './cron.js';
import { DEFAULT_TIME_FMT, parseDate, strptime } from './dates.js';

/** The options `schedule.list` shows (Salt's `SCHEDULE_CONF`, in its order). */
export const SCHEDULE_CONF: readonly string[] = [
  'name',
  'maxrunning',
  'function',
  'splay',
  'range',
  'when',
  'once',
  'once_fmt',
  'returner',
  'jid_include',
  'args',
  'kwargs',
  '_seconds',
  'seconds',
  'minutes',
  'hours',
  'days',
  'enabled',
  'return_job',
  'metadata',
  'cron',
  'until',
  'after',
  'return_config',
  'return_kwargs',
  'run_on_start',
  'skip_during_range',
  'run_after_skip_range',
];

/** Further options the scheduler reads: the function's other names, postpone/skip data, dry runs. */
const OTHER_KEYS = ['func', 'fun', 'skip_explicit', 'run_explicit', 'run', 'dry_run', 'saved'];
const KNOWN = new Set([...SCHEDULE_CONF, ...OTHER_KEYS]);

/** The schedule-wide settings that sit beside the jobs in a schedule mapping. */
export const SCHEDULE_SETTINGS: readonly string[] = [
  'enabled',
  'skip_function',
  'skip_during_range',
  'splay',
];

export const TIME_ELEMENTS = ['seconds', 'minutes', 'hours', 'days'] as const;

// a whole float (`splay: 2.0`) is a number, not a mapping
const isMap = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof SaltFloat);

/** The function a job runs (`function`, else `func` or `fun`). */
export function jobFunction(job: Readonly<Record<string, unknown>>): unknown {
  return job.function ?? job.func ?? job.fun;
}

/** A number from a YAML value (`10`, `'10'`), or NaN. */
export function numeric(v: unknown): number {
  if (typeof v === 'number') return v;
  if (v instanceof SaltFloat) return v.value;
  if (typeof v === 'string' && v.trim() !== '') return Number(v);
  return Number.NaN;
}

/** The job's interval in seconds (`seconds` + `minutes` + `hours` + `days`), or undefined without one. */
export function intervalSeconds(job: Readonly<Record<string, unknown>>): number | undefined {
  if (!TIME_ELEMENTS.some((k) => k in job)) return undefined;
  const unit = { seconds: 1, minutes: 60, hours: 3600, days: 86_400 };
  return TIME_ELEMENTS.reduce((sum, k) => sum + (k in job ? Math.trunc(numeric(job[k])) * unit[k] : 0), 0);
}

/** The `when` entries as dates: names in `whens` (pillar, grains, config) replaced by their value. */
export function whenTexts(
  job: Readonly<Record<string, unknown>>,
  whens: Readonly<Record<string, unknown>>,
): unknown[] {
  const list = Array.isArray(job.when) ? job.when : [job.when];
  return list.map((w) => (typeof w === 'string' && w in whens ? whens[w] : w));
}

function checkDates(
  name: string,
  range: unknown,
  now: number,
  startEndMessage: (part: 'start' | 'end') => string,
): string | undefined {
  if (!isMap(range))
    return `schedule.handle_func: Invalid, range must be specified as a dictionary. Ignoring job ${name}.`;
  const start = parseDate(range.start, now);
  if (start === undefined) return startEndMessage('start');
  const end = parseDate(range.end, now);
  if (end === undefined) return startEndMessage('end');
  if (end <= start)
    return `schedule.handle_func: Invalid range, end must be larger than start. Ignoring job ${name}.`;
  return undefined;
}

/**
 * The reasons job `name` cannot be scheduled (empty when it can). `now` resolves dates that
 * leave parts out; `whens` holds the named times `when` may use.
 */
export function checkJob(
  name: string,
  job: unknown,
  now: number,
  whens: Readonly<Record<string, unknown>> = {},
): string[] {
  if (!isMap(job)) return [`Scheduled job "${name}" should have a dict value, not ${typeName(job)}`];
  const errors: string[] = [];
  for (const key of Object.keys(job)) {
    if (!KNOWN.has(key) && !key.startsWith('_'))
      errors.push(`Invalid option "${key}" in scheduled job ${name}. Ignoring job ${name}.`);
  }
  const fun = jobFunction(job);
  if (typeof fun !== 'string' || !/^[\w]+\.[\w.]+$/.test(fun))
    errors.push(
      fun === undefined || fun === null
        ? `Scheduled job ${name} names no function. Ignoring job ${name}.`
        : `Invalid function: ${String(fun)} in scheduled job ${name}.`,
    );
  const keys = new Set(Object.keys(job));
  const timing = ['when', 'cron', 'once'].filter((k) => keys.has(k));
  if (timing.length > 1) errors.push('Unable to use "when", "cron", "once" options together. Ignoring.');
  const interval = intervalSeconds(job);
  if (interval !== undefined && timing.length > 0)
    errors.push(
      'Unable to use "seconds", "minutes", "hours", "days" with "when", "cron", "once" options. Ignoring',
    );
  if (interval !== undefined) {
    for (const k of TIME_ELEMENTS) {
      if (k in job && !(numeric(job[k]) >= 0))
        errors.push(
          `Invalid ${k} ${pyStr(job[k])}: an interval is a number of 0 or more. Ignoring job ${name}.`,
        );
    }
    if (errors.length === 0 && interval <= 0)
      errors.push(`Invalid interval: job ${name} would run without pause. Ignoring job ${name}.`);
  }
  if (keys.has('cron')) {
    try {
      parseCron(String(job.cron));
    } catch {
      errors.push(`Invalid cron string. Ignoring job ${name}.`);
    }
  }
  if (keys.has('when')) {
    const list = Array.isArray(job.when) ? job.when : [job.when];
    const texts = whenTexts(job, whens);
    texts.forEach((w, i) => {
      if (parseDate(w, now) === undefined)
        errors.push(`Invalid date string ${String(list[i])}. Ignoring job ${name}.`);
    });
  }
  if (keys.has('once')) {
    const fmt = typeof job.once_fmt === 'string' ? job.once_fmt : DEFAULT_TIME_FMT;
    if (strptime(job.once, fmt) === undefined)
      errors.push(`Date string could not be parsed: ${String(job.once)}, ${fmt}. Ignoring job ${name}.`);
  }
  if (keys.has('range')) {
    const e = checkDates(
      name,
      job.range,
      now,
      (part) => `Invalid date string for ${part}. Ignoring job ${name}.`,
    );
    if (e) errors.push(e);
  }
  if (keys.has('skip_during_range') && job.skip_during_range) {
    const e = checkDates(
      name,
      job.skip_during_range,
      now,
      (part) => `Invalid date string for ${part} in skip_during_range. Ignoring job ${name}.`,
    );
    if (e) errors.push(e);
  }
  for (const k of ['until', 'after'] as const) {
    if (keys.has(k) && parseDate(job[k], now) === undefined)
      errors.push(`Invalid date string for ${k}: ${String(job[k])}. Ignoring job ${name}.`);
  }
  if (keys.has('splay') && job.splay !== null && job.splay !== undefined) {
    const s = job.splay;
    if (isMap(s)) {
      if (!(numeric(s.start) >= 0) || !(numeric(s.end) >= numeric(s.start)))
        errors.push('schedule.handle_func: Invalid Splay, end must be larger than start. Ignoring splay.');
    } else if (!(numeric(s) >= 0)) errors.push(`Invalid splay ${String(s)} in scheduled job ${name}.`);
  }
  if (keys.has('maxrunning') && !(Number.isInteger(numeric(job.maxrunning)) && numeric(job.maxrunning) >= 1))
    errors.push(`Invalid maxrunning ${String(job.maxrunning)}: at least 1. Ignoring job ${name}.`);
  if (keys.has('args') && !Array.isArray(job.args))
    errors.push(`args of scheduled job ${name} is not a list. Ignoring job ${name}.`);
  if (keys.has('kwargs') && !isMap(job.kwargs))
    errors.push(`kwargs of scheduled job ${name} is not a dict. Ignoring job ${name}.`);
  return errors;
}

function typeName(v: unknown): string {
  if (v === null || v === undefined) return "<class 'NoneType'>";
  if (Array.isArray(v)) return "<class 'list'>";
  if (typeof v === 'string') return "<class 'str'>";
  if (typeof v === 'number') return Number.isInteger(v) ? "<class 'int'>" : "<class 'float'>";
  if (v instanceof SaltFloat) return "<class 'float'>";
  if (typeof v === 'boolean') return "<class 'bool'>";
  return `<class '${typeof v}'>`;
}
