/**
 * The master scheduler process (Salt's master `Schedule`, run in its maintenance loop): the
 * master's `schedule:` jobs run runner functions. Each run is an ordinary runner job, started
 * through the master's request server as `salt-run` starts one (a jid, `salt/run/<jid>/new`
 * and `ret` events, the job cache); the run counts for `maxrunning` until its `ret` event. With
 * `returner` (or `schedule_returner`) the runner's return also goes to those returners, with
 * `schedule` in it.
 */
import { RunnerClient } from '../../client/index.js';
import {
  type DaemonProcessContext,
  masterReturnerLoader,
  type ResolvedMasterConfig,
} from '../../kernel/index.js';
import { returnerNames, sendToReturners } from '../../kernel/services.js';
import { BUILTIN_RETURNERS } from '../builtin-dirs.js';
import { scheduleOptions } from './options.js';
import { type ScheduledRun, Scheduler } from './scheduler.js';

const isMap = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** How long a run counts for `maxrunning` without a `ret` event (a lost event, a dead runner). */
const RUN_LIMIT_MS = 3_600_000;

export async function startMasterSchedule(ctx: DaemonProcessContext): Promise<() => Promise<void>> {
  const config = ctx.config as unknown as ResolvedMasterConfig;
  const log = ctx.log;
  const { schedule_returner: scheduleReturner, whens } = scheduleOptions.read(config);
  const client = new RunnerClient(config);
  const returners = masterReturnerLoader(config, log, BUILTIN_RETURNERS);
  /** Runs waiting for their `ret` event, and `ret` events that came before their run knew its jid. */
  const waiting = new Map<string, (data: Record<string, unknown>) => void>();
  const early = new Map<string, Record<string, unknown>>();

  const events = ctx.listen(['salt/run/']);
  const loop = (async () => {
    for await (const ev of events) {
      const m = /^salt\/run\/(\d+)\/ret$/.exec(ev.tag);
      if (!m?.[1]) continue;
      const done = waiting.get(m[1]);
      if (done) done(ev.data);
      else {
        early.set(m[1], ev.data);
        if (early.size > 1000) early.delete(early.keys().next().value as string);
      }
    }
  })().catch((err) => log.error({ err }, 'master scheduler listener failed'));

  function finished(jid: string): Promise<Record<string, unknown> | undefined> {
    const seen = early.get(jid);
    if (seen) {
      early.delete(jid);
      return Promise.resolve(seen);
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        waiting.delete(jid);
        resolve(undefined);
      }, RUN_LIMIT_MS);
      timer.unref();
      waiting.set(jid, (data) => {
        clearTimeout(timer);
        waiting.delete(jid);
        resolve(data);
      });
    });
  }

  async function run({ name, fun, job }: ScheduledRun): Promise<void> {
    const arg = Array.isArray(job.args) ? [...job.args] : [];
    const kwarg = isMap(job.kwargs) ? { ...job.kwargs } : {};
    let jid: string;
    try {
      ({ jid } = await client.runner({ fun, arg, kwarg }));
    } catch (err) {
      log.error(
        { schedule: name, fun, err: (err as Error).message },
        `scheduled runner ${fun} not started: ${(err as Error).message}`,
      );
      return;
    }
    log.info({ schedule: name, fun, jid }, `Running scheduled job: ${name} with jid ${jid}`);
    const ret = await finished(jid);
    const names = returnerNames(
      typeof job.returner === 'string' || Array.isArray(job.returner)
        ? (job.returner as string | string[])
        : undefined,
      scheduleReturner,
    );
    if (!ret || names.length === 0) return;
    const load = {
      id: config.id ?? 'master',
      fun,
      fun_args: [...arg, ...(Object.keys(kwarg).length > 0 ? [kwarg] : [])],
      schedule: name,
      jid,
      return: ret.return,
      retcode: ret.retcode ?? 0,
      success: ret.success ?? true,
    };
    await sendToReturners(returners, names, load as never, {}, log);
  }

  const scheduler = new Scheduler({
    schedule: isMap(config.schedule) ? config.schedule : {},
    whens: () => whens,
    loopInterval: Math.min(config.loop_interval, 60),
    run,
    log,
  });
  scheduler.start();
  log.info({ jobs: Object.keys(config.schedule ?? {}).length }, 'master scheduler started');
  return async () => {
    scheduler.stop();
    events.close();
    await loop;
    await client.close();
  };
}
