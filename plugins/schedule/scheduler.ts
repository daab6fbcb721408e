/**
 * The scheduler (Salt's `salt.utils.schedule.Schedule`), shared by the minion and the master:
 * it holds the schedule (the config's `schedule:` with what `schedule.save` wrote, and the
 * pillar's), evaluates it on a timer that wakes when the next job is due, and hands each due
 * run to its owner's `run` (a minion job, a runner call). The jobs' runtime state stays here,
 * out of the configured data, so what is saved and listed is what the user wrote.
 *
 * A job that cannot be scheduled (job-check.ts) is logged once, with Salt's message where Salt
 * has one, and does not run; the other jobs go on. The management calls (`manage`) are the
 * `manage_schedule` functions Salt's minion serves to the schedule module (schedule-manage.ts).
 */
import type { UnitLogger } from '../../kernel/index.js';
import { deepCopy } from '../../modules/_traverse.js';
import { checkJob, intervalSeconds, jobFunction, numeric, SCHEDULE_SETTINGS } from './job-check.js';
import {
  afterSkipRange,
  explicitDue,
  type JobState,
  type Now,
  newJobState,
  regularDue,
  skipReason,
  splaySeconds,
  takeWindow,
} from './job-timing.js';

export interface SchedulerClock {
  /** Wall clock, ms since the epoch. */
  wall(): number;
  /** Monotonic clock, ms. */
  mono(): number;
}

export const systemClock: SchedulerClock = { wall: () => Date.now(), mono: () => performance.now() };

/** One run the scheduler starts. */
export interface ScheduledRun {
  /** The job's name (`schedule` in its return). */
  readonly name: string;
  readonly fun: string;
  readonly job: Readonly<Record<string, unknown>>;
}

export type ScheduleMap = Record<string, unknown>;

export interface SchedulerOptions {
  /** The configured schedule (config file and `_schedule.conf`): jobs and schedule-wide settings. */
  schedule: Readonly<ScheduleMap>;
  /** The pillar's `schedule:` (read at each evaluation; a new object means a new pillar). */
  pillar?: () => unknown;
  /** Named times for `when` (pillar, grains, config `whens`). */
  whens?: () => Readonly<Record<string, unknown>>;
  /** Salt's `loop_interval` (seconds): how late a wall-clock run may still start. */
  loopInterval: number;
  /** Starts one run; resolves when it ends (maxrunning counts it until then). Never rejects. */
  run(run: ScheduledRun): Promise<void>;
  /** Writes the configured schedule (what `schedule.save` and a persisting change write). */
  persist?(schedule: ScheduleMap): Promise<void>;
  log: UnitLogger;
  clock?: SchedulerClock;
  random?: () => number;
}

const isMap = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The longest the timer sleeps: new pillar, clock steps and added jobs are seen within it. */
const MAX_SLEEP_MS = 1000;
/** A wall-clock step larger than this, against the monotonic clock, is a clock jump. */
const JUMP_MS = 2000;

export class Scheduler {
  readonly #o: SchedulerOptions;
  readonly #clock: SchedulerClock;
  /** The configured schedule, in Salt's order (a Map: job names may look like numbers). */
  #opts: Map<string, unknown>;
  #pillarSource: unknown;
  #pillar = new Map<string, unknown>();
  readonly #state = new Map<string, JobState>();
  readonly #running = new Map<string, number>();
  /** The check of each job value (by identity), and the errors already logged. */
  readonly #checked = new WeakMap<object, string[]>();
  readonly #logged = new Map<string, string>();
  #timer: NodeJS.Timeout | undefined;
  #last: { wall: number; mono: number } | undefined;
  #stopped = true;

  constructor(o: SchedulerOptions) {
    this.#o = o;
    this.#clock = o.clock ?? systemClock;
    // a copy that keeps whole floats (SaltFloat), which structuredClone turns into plain objects
    this.#opts = new Map(Object.entries(isMap(o.schedule) ? deepCopy(o.schedule) : {}));
  }

  /** The schedule's `enabled` (pillar's, overridden by the configured one); true by default. */
  get enabled(): boolean {
    this.#refreshPillar();
    const v = this.#opts.has('enabled') ? this.#opts.get('enabled') : this.#pillar.get('enabled');
    return v === undefined ? true : Boolean(v);
  }

  /** Jobs running now, by job name. */
  running(name: string): number {
    return this.#running.get(name) ?? 0;
  }

  /** Starts the timer (a first evaluation now: `run_on_start` jobs run). */
  start(): void {
    this.#stopped = false;
    this.#wake(0);
  }

  stop(): void {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #wake(ms: number): void {
    if (this.#stopped) return;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      let next = MAX_SLEEP_MS;
      try {
        next = this.tick();
      } catch (err) {
        this.#o.log.error({ err: (err as Error).message }, 'the schedule could not be evaluated');
      }
      this.#wake(next);
    }, ms);
    this.#timer.unref();
  }

  #refreshPillar(): void {
    const source = this.#o.pillar?.();
    if (source === this.#pillarSource) return;
    this.#pillarSource = source;
    this.#pillar = new Map(Object.entries(isMap(source) ? source : {}));
  }

  /** The schedule as Salt's `_get_schedule` gives it: pillar entries, then the configured ones over them. */
  merged(where?: 'opts' | 'pillar'): Map<string, unknown> {
    this.#refreshPillar();
    if (where === 'opts') return new Map(this.#opts);
    if (where === 'pillar') return new Map(this.#pillar);
    const out = new Map(this.#pillar);
    for (const [k, v] of this.#opts) out.set(k, v);
    return out;
  }

  /** The configured schedule (what persisting writes). */
  configured(): ScheduleMap {
    return Object.fromEntries(this.#opts);
  }

  /** Whether job `name` comes from the pillar and not from the configured schedule. */
  fromPillar(name: string): boolean {
    this.#refreshPillar();
    return !this.#opts.has(name) && this.#pillar.has(name);
  }

  /** The reasons `job` cannot be scheduled, checked once per job value. */
  errorsOf(name: string, job: unknown): string[] {
    if (!isMap(job)) return checkJob(name, job, this.#clock.wall());
    let errors = this.#checked.get(job);
    if (!errors) {
      errors = checkJob(name, job, this.#clock.wall(), this.#o.whens?.() ?? {});
      this.#checked.set(job, errors);
    }
    return errors;
  }

  /**
   * Evaluates the schedule once and starts the runs that are due; returns how long to sleep
   * before the next evaluation (ms).
   */
  tick(): number {
    const wall = this.#clock.wall();
    const mono = this.#clock.mono();
    const jump = this.#last ? wall - this.#last.wall - (mono - this.#last.mono) : 0;
    if (Math.abs(jump) > JUMP_MS) {
      // forward: a cron time now past runs once (as in Salt), then the next is computed from
      // now; back: the cron times planned from the later clock are computed anew
      this.#o.log.info({ jump_ms: Math.round(jump) }, 'the wall clock jumped');
      if (jump < 0) for (const st of this.#state.values()) if (st.cron) st.next = undefined;
    }
    this.#last = { wall, mono };
    const now: Now = { wall, mono, grace: Math.max(1, this.#o.loopInterval) * 1000 };
    const schedule = this.merged();
    const settings = Object.fromEntries(SCHEDULE_SETTINGS.map((k) => [k, schedule.get(k)]));
    const enabled = settings.enabled === undefined ? true : Boolean(settings.enabled);
    let sleep = MAX_SLEEP_MS;
    for (const [name, job] of schedule) {
      if (SCHEDULE_SETTINGS.includes(name)) continue;
      if (!this.#usable(name, job)) continue;
      const st = this.#stateOf(name);
      this.#evaluate(name, job, st, now, enabled, settings);
      sleep = Math.min(sleep, this.#sleepFor(st, now));
    }
    for (const name of this.#state.keys()) if (!schedule.has(name)) this.#state.delete(name);
    return Math.max(5, sleep);
  }

  #usable(name: string, job: unknown): job is Record<string, unknown> {
    const errors = this.errorsOf(name, job);
    const text = errors.join(' ');
    if (errors.length === 0) {
      this.#logged.delete(name);
      return true;
    }
    if (this.#logged.get(name) !== text) {
      this.#logged.set(name, text);
      for (const e of errors) this.#o.log.error({ schedule: name }, e);
    }
    return false;
  }

  #stateOf(name: string): JobState {
    let st = this.#state.get(name);
    if (!st) {
      st = newJobState();
      this.#state.set(name, st);
    }
    return st;
  }

  #sleepFor(st: JobState, now: Now): number {
    let ms = MAX_SLEEP_MS;
    if (st.nextMono !== undefined) ms = Math.min(ms, st.nextMono - now.mono);
    if (st.splayMono !== undefined) ms = Math.min(ms, st.splayMono - now.mono);
    if (st.next !== undefined) ms = Math.min(ms, st.next - now.wall);
    return ms;
  }

  #evaluate(
    name: string,
    job: Record<string, unknown>,
    st: JobState,
    now: Now,
    enabled: boolean,
    settings: Record<string, unknown>,
  ): void {
    const jobEnabled = enabled && job.enabled !== false && job.enabled !== 'false';
    if (!st.started) {
      st.started = true;
      if (job.run_on_start && jobEnabled) {
        regularDue(job, st, now, this.#o.whens?.() ?? {});
        this.#start(name, job, st, now);
        return;
      }
    }
    if (st.splayMono !== undefined) {
      if (now.mono < st.splayMono) return;
      st.splayMono = undefined;
      st.splayAt = undefined;
      if (jobEnabled) this.#start(name, job, st, now);
      return;
    }
    const explicit = explicitDue(job, st, now);
    const regular = regularDue(job, st, now, this.#o.whens?.() ?? {});
    const after = afterSkipRange(job, now, settings.skip_during_range);
    const afterDue = after !== undefined && takeWindow(st, after, now);
    if (!explicit && !regular && !afterDue) return;
    let fun = String(jobFunction(job));
    const reason = explicit || afterDue ? undefined : skipReason(job, now, settings.skip_during_range);
    if (reason) {
      if (
        typeof settings.skip_function === 'string' &&
        reason !== 'until_passed' &&
        reason !== 'after_not_passed'
      )
        fun = settings.skip_function;
      else {
        this.#skip(name, st, reason, now);
        return;
      }
    }
    if (!jobEnabled) {
      this.#skip(name, st, 'disabled', now);
      return;
    }
    const splay = splaySeconds(job.splay ?? settings.splay, this.#o.random ?? Math.random);
    if (splay > 0 && !explicit) {
      st.splayMono = now.mono + splay * 1000;
      st.splayAt = now.wall + splay * 1000;
      this.#o.log.debug({ schedule: name, splay }, `schedule: adding splay of ${splay} seconds to next run`);
      return;
    }
    this.#start(name, { ...job, function: fun }, st, now);
  }

  #skip(name: string, st: JobState, reason: string, now: Now): void {
    st.skipped = { reason, time: now.wall };
    this.#o.log.debug({ schedule: name, reason }, `scheduled job ${name} skipped: ${reason}`);
  }

  /** Starts a run unless `maxrunning` runs of the job are going. */
  #start(name: string, job: Record<string, unknown>, st: JobState | undefined, now: Now): boolean {
    const max = 'maxrunning' in job ? numeric(job.maxrunning) : 1;
    const running = this.running(name);
    if (job.jid_include !== false && running >= max) {
      if (st) this.#skip(name, st, 'maxrunning', now);
      this.#o.log.debug(
        { schedule: name, running, maxrunning: max },
        `The scheduled job ${name} was not started, ${max} already running`,
      );
      return false;
    }
    if (st) {
      st.lastRun = now.wall;
      st.skipped = undefined;
    }
    this.#running.set(name, running + 1);
    const fun = String(jobFunction(job));
    this.#o.log.info({ schedule: name, fun }, `Running scheduled job: ${name}`);
    void this.#o
      .run({ name, fun, job })
      .catch((err) =>
        this.#o.log.error({ schedule: name, err: (err as Error).message }, 'scheduled run failed'),
      )
      .finally(() => {
        const left = this.running(name) - 1;
        if (left > 0) this.#running.set(name, left);
        else this.#running.delete(name);
      });
    return true;
  }

  /** Runs job `name` now (schedule.run_job), `maxrunning` permitting; false when it is not usable. */
  runNow(name: string): boolean {
    const job = this.merged().get(name);
    if (!this.#usable(name, job)) return false;
    const now = { wall: this.#clock.wall(), mono: this.#clock.mono(), grace: 0 };
    return this.#start(name, job, this.#state.get(name), now);
  }

  /** The runtime fields Salt's job_status shows beside a job's options. */
  runtime(name: string): {
    next?: number;
    scheduledNext?: number;
    splayAt?: number;
    lastRun?: number;
    seconds?: number;
    skipped?: { reason: string; time: number };
  } {
    const st = this.#state.get(name);
    const job = this.merged().get(name);
    const seconds = isMap(job) ? intervalSeconds(job) : undefined;
    return {
      next: st?.splayAt ?? st?.next,
      scheduledNext: st?.scheduledNext,
      splayAt: st?.splayAt,
      lastRun: st?.lastRun,
      seconds,
      skipped: st?.skipped,
    };
  }

  /**
   * Sets (or with `undefined`, deletes) a configured entry; its runtime state starts anew
   * unless `keepState` (a postponed or skipped run keeps the job's timing).
   */
  set(name: string, value: unknown, keepState = false): void {
    if (value === undefined) this.#opts.delete(name);
    else this.#opts.set(name, value);
    if (!keepState) this.#state.delete(name);
    this.#logged.delete(name);
    if (!this.#stopped) this.#wake(0);
  }

  /** Adds the entries of a saved schedule (schedule.reload), over the configured ones. */
  reload(schedule: ScheduleMap): void {
    for (const [k, v] of Object.entries(schedule)) this.#opts.set(k, v);
    this.#state.clear();
    if (!this.#stopped) this.#wake(0);
  }

  async persist(): Promise<void> {
    try {
      await this.#o.persist?.(this.configured());
    } catch (err) {
      this.#o.log.error({ err: (err as Error).message }, 'Failed to persist the updated schedule');
    }
  }
}
