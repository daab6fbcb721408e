/**
 * The minion's periodic mine update, as Salt schedules it (`Minion._post_master_init`): once the
 * minion has its pillar, the scheduler gets Salt's `__mine_interval` job (`mine.update` every
 * `mine_interval` minutes, `run_on_start`, at most two at once, `return_job` from
 * `mine_return_job`), saved with the schedule; with `mine_enabled: False` the job is removed.
 * `schedule.list show_all=True` shows it as Salt does. Unlike Salt, a run with no
 * `mine_functions` anywhere is skipped without a job process (unless its return is wanted), and
 * `mine_interval: 0` means one update at start (Salt would run it at every loop).
 */
import type { ResolvedMinionConfig } from '../kernel/config/index.js';
import type { MinionJob, MinionJobOutcome } from '../kernel/jobs/types.js';
import { mineMinionOptions } from '../plugins/mine/options.js';
import type { Scheduler } from '../plugins/schedule/scheduler.js';

/** The schedule name Salt gives the mine's job. */
export const MINE_SCHEDULE_NAME = '__mine_interval';

const nonEmptyMap = (v: unknown): boolean =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length > 0;

/**
 * Whether `mine.update` has anything to run: `mine_functions` in the config, the pillar or the
 * pillar's `master` key. Without any it returns None and sends nothing, so the job (and the job
 * process it would start) is skipped, unless its return is to reach the master.
 */
export function mineHasWork(configured: unknown, pillar: Readonly<Record<string, unknown>>): boolean {
  const master = pillar.master as Record<string, unknown> | undefined;
  return nonEmptyMap(configured) || nonEmptyMap(pillar.mine_functions) || nonEmptyMap(master?.mine_functions);
}

/** The mine options of `config`; throws SALT_ERR_CONFIG_INVALID for a bad one (checked at start). */
export function mineIntervalOptions(config: ResolvedMinionConfig) {
  return mineMinionOptions.read(config);
}

/** Salt's `__mine_interval` entry for `config`; undefined with `mine_enabled: False`. */
export function mineScheduleEntry(config: ResolvedMinionConfig): Record<string, unknown> | undefined {
  const o = mineIntervalOptions(config);
  if (!o.mine_enabled) return undefined;
  return {
    function: 'mine.update',
    minutes: o.mine_interval,
    jid_include: true,
    maxrunning: 2,
    run_on_start: true,
    return_job: o.mine_return_job,
  };
}

/**
 * The outcome a skipped run stands for (a `mine.update` with nothing to run returns None), or
 * undefined when `job` is to run: anything but the mine's job, or the mine's with work to do
 * or a return to send.
 */
export function skippedMineRun(
  job: MinionJob,
  config: ResolvedMinionConfig,
  pillar: Readonly<Record<string, unknown>>,
): MinionJobOutcome | undefined {
  if (job.schedule !== MINE_SCHEDULE_NAME) return undefined;
  const o = mineIntervalOptions(config);
  if (o.mine_return_job || mineHasWork(o.mine_functions, pillar)) return undefined;
  return { return: null, retcode: 0, success: true };
}

/**
 * Puts the mine's job in the scheduler (or takes it out with `mine_enabled: False`) and saves
 * the schedule, as Salt's minion does once it has its pillar. With `mine_interval: 0` the one
 * update runs now, outside the schedule.
 */
export async function scheduleMine(
  scheduler: Scheduler,
  config: ResolvedMinionConfig,
  runOnce: () => Promise<void>,
): Promise<void> {
  const entry = mineScheduleEntry(config);
  if (entry && entry.minutes === 0) {
    await runOnce();
    return;
  }
  if (!entry && !scheduler.merged('opts').has(MINE_SCHEDULE_NAME)) return;
  // as Salt's add_job, which marks an added job enabled
  scheduler.set(MINE_SCHEDULE_NAME, entry && { ...entry, enabled: true });
  await scheduler.persist();
}

/** Salt's scheduled-job return load for one run of the mine update. */
export function mineReturnLoad(id: string, outcome: MinionJobOutcome): Record<string, unknown> {
  return {
    cmd: '_return',
    id,
    fun: 'mine.update',
    fun_args: [],
    schedule: MINE_SCHEDULE_NAME,
    jid: 'req',
    pid: process.pid,
    return: outcome.return,
    retcode: outcome.retcode,
    success: outcome.success,
  };
}

/** What one update outside the schedule (`mine_interval: 0`) needs. */
export interface MineOnceEnv {
  readonly config: ResolvedMinionConfig;
  readonly id: string;
  /** Runs a job on the minion's executor. */
  run(job: MinionJob): Promise<MinionJobOutcome>;
  /** Sends an aes load to the master. */
  send(load: Record<string, unknown>): Promise<unknown>;
  pillar(): Readonly<Record<string, unknown>>;
  newJid(): string;
}

/** One `mine.update` now, as the schedule would run it (skipped without work, its return sent with `mine_return_job`). */
export async function runMineOnce(env: MineOnceEnv): Promise<void> {
  const job: MinionJob = { jid: env.newJid(), fun: 'mine.update', arg: [], schedule: MINE_SCHEDULE_NAME };
  if (skippedMineRun(job, env.config, env.pillar())) return;
  const outcome = await env.run(job);
  if (mineIntervalOptions(env.config).mine_return_job) await env.send(mineReturnLoad(env.id, outcome));
}
