import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { ResolvedMinionConfig } from '../kernel/config/index.js';
import type { MinionJob, MinionJobOutcome } from '../kernel/jobs/types.js';
import { mineHasWork, mineReturnLoad, startMineInterval } from './mine-interval.js';

const log = pino({ level: 'silent' });
const config = (extra: Record<string, unknown>) => ({ extra }) as unknown as ResolvedMinionConfig;
const ok: MinionJobOutcome = { return: true, retcode: 0, success: true };
const pillar = () => ({});
const work = { mine_functions: { 'test.ping': [] } };

describe('the periodic mine update', () => {
  it('runs mine.update at once; with mine_return_job its return goes to the master as a scheduled job', async () => {
    const jobs: MinionJob[] = [];
    const sent: Record<string, unknown>[] = [];
    let release: () => void = () => {};
    const first = new Promise<void>((r) => {
      release = r;
    });
    const mine = startMineInterval({
      config: config({ mine_interval: 0, mine_return_job: true }),
      pillar,
      id: 'm1',
      log,
      run: async (job) => {
        jobs.push(job);
        return ok;
      },
      send: async (load) => {
        sent.push(load);
        release();
      },
    });
    await first;
    mine?.stop();
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ fun: 'mine.update', arg: [], schedule: '__mine_interval' });
    expect(jobs[0]?.jid).toMatch(/^\d{20}$/);
    expect(sent).toEqual([mineReturnLoad('m1', ok)]);
    expect(Object.keys(sent[0] ?? {})).toEqual([
      'cmd',
      'id',
      'fun',
      'fun_args',
      'schedule',
      'jid',
      'pid',
      'return',
      'retcode',
      'success',
    ]);
    expect(sent[0]).toMatchObject({ cmd: '_return', jid: 'req', schedule: '__mine_interval' });
  });

  it('holds at two runs at once (maxrunning 2), and sends nothing without mine_return_job', async () => {
    let running = 0;
    let most = 0;
    const sent: unknown[] = [];
    const gates: Array<() => void> = [];
    const mine = startMineInterval({
      config: config({ mine_interval: 0, ...work }),
      pillar,
      id: 'm1',
      log,
      run: async () => {
        running++;
        most = Math.max(most, running);
        await new Promise<void>((r) => gates.push(r));
        running--;
        return ok;
      },
      send: async (load) => {
        sent.push(load);
      },
    });
    const more = [mine?.tick(), mine?.tick(), mine?.tick()];
    for (;;) {
      const gate = gates.shift();
      if (gate) gate();
      else if (running === 0) break;
      await new Promise((r) => setImmediate(r));
    }
    await Promise.all(more);
    mine?.stop();
    expect(most).toBe(2);
    expect(sent).toEqual([]);
  });

  it('does nothing with mine_enabled: False, and refuses a bad option', () => {
    expect(
      startMineInterval({
        config: config({ mine_enabled: false }),
        id: 'm1',
        log,
        run: async () => ok,
        send: async () => {},
        pillar,
      }),
    ).toBeUndefined();
    expect(() =>
      startMineInterval({
        config: config({ mine_interval: -1 }),
        id: 'm1',
        log,
        run: async () => ok,
        send: async () => {},
        pillar,
      }),
    ).toThrow(expect.objectContaining({ code: 'SALT_ERR_CONFIG_INVALID' }));
  });

  it('skips the job when no mine_functions are configured anywhere (unless its return is wanted)', async () => {
    let runs = 0;
    const mine = startMineInterval({
      config: config({ mine_interval: 0 }),
      id: 'm1',
      log,
      run: async () => {
        runs++;
        return ok;
      },
      send: async () => {},
      pillar,
    });
    await mine?.tick();
    expect(runs).toBe(0);
    mine?.stop();
    expect(mineHasWork({}, { mine_functions: { a: [] } })).toBe(true);
    expect(mineHasWork({}, { master: { mine_functions: { a: [] } } })).toBe(true);
    expect(mineHasWork({ a: [] }, {})).toBe(true);
    expect(mineHasWork({}, { mine_functions: {} })).toBe(false);
  });
});
