/**
 * The minion's periodic mine update (Salt's `__mine_interval` schedule entry): with
 * `mine_enabled`, `mine.update` runs as a job once the minion has its pillar, then every
 * `mine_interval` minutes, at most two at once (Salt's `maxrunning: 2`); with `mine_return_job`
 * its return goes to the master as a scheduled job's does (`jid: req`, `schedule:
 * __mine_interval`). A small timer of its own, so the minion scheduler can take it over later.
 */
import type { Logger } from 'pino';
import type { ResolvedMinionConfig } from '../kernel/config/index.js';
import { genJid } from '../kernel/jid.js';
import type { MinionJob, MinionJobOutcome } from '../kernel/jobs/types.js';
import { mineMinionOptions } from '../plugins/mine/options.js';

/** The schedule name Salt gives the mine's job. */
export const MINE_SCHEDULE_NAME = '__mine_interval';
const MAX_RUNNING = 2;

export interface MineIntervalEnv {
  readonly config: ResolvedMinionConfig;
  readonly id: string;
  readonly log: Logger;
  /** Runs a job on the minion's executor. */
  run(job: MinionJob): Promise<MinionJobOutcome>;
  /** Sends an aes load to the master. */
  send(load: Record<string, unknown>): Promise<unknown>;
  /** The minion's current pillar (its `mine_functions`, and those under its `master` key). */
  pillar(): Readonly<Record<string, unknown>>;
}

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

export interface MineInterval {
  /** Runs one update now (what the timer does); resolves when it is done or skipped. */
  tick(): Promise<void>;
  stop(): void;
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

/** The mine options of `config`; throws SALT_ERR_CONFIG_INVALID for a bad one (checked at start). */
export function mineIntervalOptions(config: ResolvedMinionConfig) {
  return mineMinionOptions.read(config);
}

/** Starts the periodic update (the first run at once); undefined with `mine_enabled: False`. */
export function startMineInterval(env: MineIntervalEnv): MineInterval | undefined {
  const opts = mineIntervalOptions(env.config);
  if (!opts.mine_enabled) return undefined;
  let running = 0;
  let stopped = false;
  const tick = async (): Promise<void> => {
    if (stopped || running >= MAX_RUNNING) return;
    if (!opts.mine_return_job && !mineHasWork(opts.mine_functions, env.pillar())) return;
    running++;
    try {
      const job: MinionJob = {
        jid: genJid(env.config),
        fun: 'mine.update',
        arg: [],
        schedule: MINE_SCHEDULE_NAME,
      };
      const outcome = await env.run(job);
      if (outcome.success !== true) env.log.warn({ ret: outcome.return }, 'the scheduled mine.update failed');
      if (opts.mine_return_job) await env.send(mineReturnLoad(env.id, outcome));
    } catch (err) {
      env.log.warn({ err: (err as Error).message }, 'the scheduled mine.update could not run');
    } finally {
      running--;
    }
  };
  const minutes = opts.mine_interval;
  const timer = minutes > 0 ? setInterval(() => void tick(), minutes * 60_000) : undefined;
  timer?.unref();
  env.log.info({ minutes }, 'Added mine.update to scheduler');
  void tick();
  return {
    tick,
    stop() {
      stopped = true;
      if (timer) clearInterval(timer);
    },
  };
}
