/**
 * The minion's scheduler (Salt starts it in `Minion.tune_in`): the `schedule:` of its config
 * (with `minion.d/_schedule.conf`) and of its pillar, evaluated by plugins/schedule's
 * Scheduler. Each due run is an ordinary job: a jid, a job process (or this process for inline
 * functions), `proc/<jid>` while it runs (with `schedule` in it, so `saltutil.running` shows
 * it), its returners (the job's `returner` and `schedule_returner`), and unless
 * `return_job: False` a `_return` to the master with `schedule` in it, under jid `req` so the
 * master files it under a jid of its own (with returners, the minion's jid, as Salt does).
 *
 * The schedule module reaches it through `manageSchedule` (the job processes' IPC); each call
 * that Salt answers with a `..._complete` event also fires `salt/minion/<id>/schedule_..._complete`
 * on the master bus, with the configured jobs (never the pillar's).
 */
import type { Logger } from 'pino';
import type { ResolvedMinionConfig } from '../kernel/config/index.js';
import { genJid } from '../kernel/jid.js';
import { scheduleOptions } from '../plugins/schedule/options.js';
import {
  readScheduleFloats,
  scheduleFile,
  withSavedFloats,
  writeScheduleFile,
} from '../plugins/schedule/schedule-file.js';
import { manageSchedule } from '../plugins/schedule/schedule-manage.js';
import { type ScheduledRun, Scheduler } from '../plugins/schedule/scheduler.js';
import type { JobOutcome } from './execute-job.js';
import type { JobData } from './job-protocol.js';
import { MINE_SCHEDULE_NAME } from './mine-interval.js';

export interface MinionSchedulerOptions {
  id: string;
  config: ResolvedMinionConfig;
  /** Runs a job as the executor does; resolves with its outcome, never rejects. */
  execute(job: JobData): Promise<JobOutcome>;
  /** Sends an aes load to the master. */
  send(load: Record<string, unknown>): Promise<unknown>;
  /** The pillar now (its `schedule` and `whens`). */
  pillar(): Readonly<Record<string, unknown>>;
  grains(): Readonly<Record<string, unknown>>;
  log: Logger;
}

export interface MinionScheduler {
  readonly scheduler: Scheduler;
  manage(call: Readonly<Record<string, unknown>>): Promise<Record<string, unknown>>;
  stop(): void;
}

const isMap = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The returners of a scheduled job: its own, then `schedule_returner`, each once. */
function returnersOf(job: Readonly<Record<string, unknown>>, scheduleReturner: readonly string[]): string[] {
  const own = job.returner;
  const list = [
    ...(typeof own === 'string' ? [own] : Array.isArray(own) ? own.map(String) : []),
    ...scheduleReturner,
  ];
  return [...new Set(list.filter((r) => r !== ''))];
}

/** Salt's `fun_args` of a scheduled job: its `args`, then its `kwargs` as one mapping. */
function funArgs(job: Readonly<Record<string, unknown>>): unknown[] {
  const args = Array.isArray(job.args) ? [...job.args] : [];
  if (isMap(job.kwargs)) args.push({ ...job.kwargs });
  return args;
}

export async function startMinionScheduler(o: MinionSchedulerOptions): Promise<MinionScheduler> {
  const { id, config, log } = o;
  const opts = config as unknown as Readonly<Record<string, unknown>>;
  const { schedule_returner: scheduleReturner, whens } = scheduleOptions.read(config);
  const file = scheduleFile(opts);
  const warnedMissing = new Set<string>();

  async function run({ name, fun, job }: ScheduledRun): Promise<void> {
    const jid = genJid();
    const returners = returnersOf(job, scheduleReturner);
    const args = funArgs(job);
    const publishArgs = isMap(job.kwargs)
      ? [...(Array.isArray(job.args) ? job.args : []), { ...job.kwargs, __kwarg__: true }]
      : [...(Array.isArray(job.args) ? job.args : [])];
    const data: JobData = {
      jid,
      fun,
      arg: publishArgs,
      tgt: id,
      tgt_type: 'glob',
      user: 'root',
      schedule: name,
    };
    if (returners.length > 0) data.ret = returners.join(',');
    if (job.return_config !== undefined) data.ret_config = job.return_config;
    if (job.return_kwargs !== undefined) data.ret_kwargs = job.return_kwargs;
    if (isMap(job.metadata)) data.metadata = job.metadata;
    log.info({ schedule: name, fun, jid }, `Running scheduled job: ${name} with jid ${jid}`);
    const outcome = await o.execute(data);
    if (outcome.success === false && typeof outcome.return === 'string' && !warnedMissing.has(name)) {
      if (/is not available/.test(outcome.return)) {
        warnedMissing.add(name);
        log.error(
          { schedule: name, fun },
          `Invalid function: ${fun} in scheduled job ${name}. ${outcome.return}`,
        );
      }
    }
    if (job.return_job === false || job.return_job === 'false') return;
    const load: Record<string, unknown> = {
      cmd: '_return',
      id,
      fun,
      fun_args: args,
      schedule: name,
      jid: returners.length > 0 ? jid : job.return_job === 'nocache' ? 'nocache' : 'req',
      pid: process.pid,
      return: outcome.return,
      retcode: outcome.retcode,
      success: outcome.success,
    };
    if (isMap(job.metadata)) load.metadata = job.metadata;
    // not awaited: a master slow to answer does not hold the job's maxrunning slot
    void o
      .send(load)
      .catch((err) =>
        log.warn(
          { schedule: name, jid, err: (err as Error).message },
          'the scheduled job return did not reach the master',
        ),
      );
  }

  // the saved mine job waits for the pillar: the minion adds it then (minion/mine-interval.ts)
  const { [MINE_SCHEDULE_NAME]: _mine, ...loaded } = isMap(config.schedule) ? config.schedule : {};
  // the saved jobs' whole floats (`seconds: 1.0`), which the config loader read as integers
  const configured = withSavedFloats(loaded, await readScheduleFloats(file)) as Record<string, unknown>;
  const scheduler = new Scheduler({
    schedule: configured,
    pillar: () => o.pillar().schedule,
    whens: () => ({
      ...whens,
      ...(isMap(o.grains().whens) ? (o.grains().whens as Record<string, unknown>) : {}),
      ...(isMap(o.pillar().whens) ? (o.pillar().whens as Record<string, unknown>) : {}),
    }),
    loopInterval: config.loop_interval,
    run,
    persist: (schedule) => writeScheduleFile(file, schedule),
    log,
  });
  scheduler.start();

  return {
    scheduler,
    async manage(call) {
      const answer = await manageSchedule(scheduler, call);
      const { event, ...reply } = answer;
      if (event) {
        const data: Record<string, unknown> = { complete: true };
        if (reply.schedule !== undefined) data.schedule = scheduler.configured();
        void o
          .send({
            cmd: '_minion_event',
            id,
            pretag: null,
            events: [{ tag: `salt/minion/${id}/${event}`, data }],
          })
          .catch((err) => log.debug({ err: (err as Error).message }, 'schedule event not delivered'));
      }
      return reply as Record<string, unknown>;
    },
    stop: () => scheduler.stop(),
  };
}
