/**
 * When a scheduled job is due (Salt's `Schedule.eval` and its `_handle_*` helpers), as pure
 * functions of the job, its runtime state and the clock, so the time computations are tested
 * without sleeping:
 * - intervals (`seconds`/`minutes`/`hours`/`days`) count on the monotonic clock: a wall-clock
 *   step neither fires them early nor holds them; after a pause longer than the interval they
 *   fire once and keep their period, with no burst of missed runs;
 * - `cron`, `when` and `once` are wall-clock times: a run is due from its time for one grace
 *   window (Salt's `loop_interval`); a time missed by more (the minion was down, the clock
 *   stepped past it) is not run late, as in Salt;
 * - `range`, `skip_during_range`, `skip_explicit`, `until` and `after` then decide whether a due
 *   run is skipped, with Salt's `_skip_reason` names.
 */
import { SaltFloat } from '../../kernel/util.js';
import { type CronSpec, nextCronTime, parseCron } from './cron.js';
import { DEFAULT_TIME_FMT, parseDate, strptime } from './dates.js';
import { intervalSeconds, numeric, whenTexts } from './job-check.js';

/** What the scheduler keeps about one job between evaluations (Salt keeps it in the job's dict). */
export interface JobState {
  /** Interval jobs: the monotonic time of the next run. */
  nextMono?: number;
  /** The wall time of the next run (Salt's `_next_fire_time`). */
  next?: number;
  /** The wall time the next run was planned for, before splay (`_next_scheduled_fire_time`). */
  scheduledNext?: number;
  /** A due run held back by its splay until this monotonic time. */
  splayMono?: number;
  /** The wall time of the splayed run (`_splay`). */
  splayAt?: number;
  lastRun?: number;
  /** `when`, `once` and explicit times already handled. */
  readonly fired: Set<number>;
  /** Whether the first evaluation (`run_on_start`) happened. */
  started: boolean;
  skipped?: { reason: string; time: number };
  /** The parsed cron expression, once. */
  cron?: CronSpec;
}

export function newJobState(): JobState {
  return { fired: new Set(), started: false };
}

export interface Now {
  /** Wall clock, ms since the epoch. */
  readonly wall: number;
  /** Monotonic clock, ms. */
  readonly mono: number;
  /** How long after its time a wall-clock run may still start (ms). */
  readonly grace: number;
}

/** Whether the regular timing of `job` makes it due now; advances the state past the run. */
export function regularDue(
  job: Readonly<Record<string, unknown>>,
  st: JobState,
  now: Now,
  whens: Readonly<Record<string, unknown>>,
): boolean {
  const interval = intervalSeconds(job);
  if (interval !== undefined) {
    const period = interval * 1000;
    st.nextMono ??= now.mono + period;
    let due = false;
    if (now.mono >= st.nextMono) {
      due = true;
      st.nextMono += period;
      // a pause longer than the period (a suspended host, a blocked loop): one run, no burst
      if (st.nextMono <= now.mono) st.nextMono = now.mono + period;
    }
    st.next = now.wall + (st.nextMono - now.mono);
    st.scheduledNext = st.next;
    return due;
  }
  if ('once' in job) {
    const fmt = typeof job.once_fmt === 'string' ? job.once_fmt : DEFAULT_TIME_FMT;
    const t = strptime(job.once, fmt);
    if (t === undefined) return false;
    st.next = t;
    st.scheduledNext = t;
    return takeWindow(st, t, now);
  }
  if ('when' in job) {
    const times = whenTexts(job, whens)
      .map((w) => parseDate(w, now.wall))
      .filter((t): t is number => t !== undefined)
      .sort((a, b) => a - b);
    let due = false;
    for (const t of times) if (takeWindow(st, t, now)) due = true;
    const upcoming = times.find((t) => t > now.wall);
    st.next = upcoming;
    st.scheduledNext = upcoming;
    return due;
  }
  if ('cron' in job) {
    st.cron ??= parseCron(String(job.cron));
    st.next ??= nextCronTime(st.cron, now.wall);
    let due = false;
    if (st.next !== undefined && now.wall >= st.next) {
      due = true;
      st.next = nextCronTime(st.cron, now.wall);
    }
    st.scheduledNext = st.next;
    return due;
  }
  return false;
}

/** Whether wall time `t` is due now and not handled yet; marks it handled. */
export function takeWindow(st: JobState, t: number, now: Now): boolean {
  if (st.fired.has(t) || t > now.wall || now.wall > t + now.grace) return false;
  st.fired.add(t);
  return true;
}

/** The times of a postpone/skip list (`[{time, time_fmt}]`). */
export function explicitTimes(list: unknown): number[] {
  if (!Array.isArray(list)) return [];
  const out: number[] = [];
  for (const item of list) {
    const rec = item as { time?: unknown; time_fmt?: unknown } | null;
    const fmt = typeof rec?.time_fmt === 'string' ? rec.time_fmt : DEFAULT_TIME_FMT;
    const t = strptime(rec?.time, fmt);
    if (t !== undefined) out.push(t);
  }
  return out;
}

/** Whether a `run_explicit` time (schedule.postpone_job's new time) is due now. */
export function explicitDue(job: Readonly<Record<string, unknown>>, st: JobState, now: Now): boolean {
  let due = false;
  for (const t of explicitTimes(job.run_explicit)) if (takeWindow(st, t, now)) due = true;
  return due;
}

function window(spec: unknown, now: number): { start: number; end: number; invert: boolean } | undefined {
  const r = spec as { start?: unknown; end?: unknown; invert?: unknown } | null;
  const start = parseDate(r?.start, now);
  const end = parseDate(r?.end, now);
  if (start === undefined || end === undefined || end <= start) return undefined;
  return { start, end, invert: Boolean(r?.invert) };
}

/**
 * Why a due run of `job` is skipped now (Salt's `_skip_reason`), or undefined to run it.
 * `skipDuringRange` is the schedule-wide setting, used when the job has none.
 */
export function skipReason(
  job: Readonly<Record<string, unknown>>,
  now: Now,
  skipDuringRange: unknown,
): string | undefined {
  const w = now.wall;
  if (job.range) {
    const r = window(job.range, w);
    if (r) {
      const inside = r.start <= w && w <= r.end;
      if (r.invert ? inside && w !== r.start && w !== r.end : !inside)
        return r.invert ? 'in_skip_range' : 'not_in_range';
    }
  }
  const skipRange = job.skip_during_range ?? skipDuringRange;
  if (skipRange) {
    const r = window(skipRange, w);
    if (r && r.start <= w && w <= r.end) return 'in_skip_range';
  }
  for (const t of explicitTimes(job.skip_explicit)) if (t <= w && w <= t + now.grace) return 'skip_explicit';
  if ('until' in job) {
    const until = parseDate(job.until, w);
    if (until !== undefined && until <= w) return 'until_passed';
  }
  if ('after' in job) {
    const after = parseDate(job.after, w);
    if (after !== undefined && after >= w) return 'after_not_passed';
  }
  return undefined;
}

/**
 * `run_after_skip_range`: the time just after the job's skip range ends (end + grace), when the
 * job asks for a run then.
 */
export function afterSkipRange(
  job: Readonly<Record<string, unknown>>,
  now: Now,
  skipDuringRange: unknown,
): number | undefined {
  if (!job.run_after_skip_range) return undefined;
  const r = window(job.skip_during_range ?? skipDuringRange, now.wall);
  return r ? r.end + 1000 : undefined;
}

/** The splay, in seconds, for one run (Salt's `_splay`): 1..splay, or start..end; 0 without. */
export function splaySeconds(splay: unknown, random: () => number): number {
  if (splay === null || splay === undefined || splay === false) return 0;
  if (typeof splay === 'object' && !Array.isArray(splay) && !(splay instanceof SaltFloat)) {
    const { start, end } = splay as { start?: unknown; end?: unknown };
    const lo = numeric(start);
    const hi = numeric(end);
    if (!(hi >= lo)) return 0;
    return Math.floor(lo + random() * (hi - lo + 1));
  }
  const n = Math.trunc(numeric(splay));
  return n >= 1 ? 1 + Math.floor(random() * n) : 0;
}
