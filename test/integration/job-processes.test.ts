import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from '../../tools/local-cluster.js';

/** Pids of the job processes (children running job-process.js) of `parent`. */
function jobProcesses(parent: number): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== parent) continue;
      if (readFileSync(`/proc/${entry}/cmdline`, 'latin1').includes('job-process.js'))
        pids.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return pids;
}

async function until<T>(probe: () => T | undefined, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('the minion job-process pool: bounded, shared past the cap', () => {
  const c = new Cluster();
  beforeAll(async () => {
    await c.startMaster();
    await c.startMinion('pool', { job_processes_max: 2 });
    await c.startMinion('one', { job_processes_max: 1 });
    await c.startMinion('slots', { process_count_max: 1 });
    await c.startMinion('idle', { job_process_idle_timeout: 1 });
  }, 60_000);
  afterAll(() => c.stop());

  /** Whether minion `id` has the job `jid` running (its proc file). */
  const running = (id: string, jid: string): true | undefined =>
    existsSync(join(c.root, 'minions', id, 'var/cache/salt/minion/proc', jid)) ? true : undefined;

  async function asyncJob(tgt: string, ...fun: string[]): Promise<string> {
    const r = await c.salt(['--async', tgt, ...fun]);
    const jid = /Executed command with job ID: (\d+)/.exec(r.stdout)?.[1];
    if (!jid) throw new Error(`no jid: ${r.stdout}${r.stderr}`);
    return jid;
  }

  it('a flood of concurrent jobs runs in at most job_processes_max processes, all at once, every one returning', async () => {
    const minion = c.minions.get('pool')!;
    const jids = await Promise.all(Array.from({ length: 8 }, () => asyncJob('pool', 'test.sleep', '3')));
    const started = Date.now();
    let most = 0;
    const all = Promise.all(jids.map((jid) => c.jobReturns(jid, (s) => 'pool' in s, 30_000)));
    const watch = setInterval(() => {
      most = Math.max(most, jobProcesses(minion.proc.pid!).length);
    }, 100);
    const stored = await all;
    clearInterval(watch);
    for (const s of stored) expect(s.pool?.return).toBe(true);
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(2);
    // sharing processes, the eight 3 s sleeps ran side by side, not one after another (24 s)
    expect(Date.now() - started).toBeLessThan(15_000);
  }, 60_000);

  it('a job process that dies fails every job it held, and the next job runs in a fresh one', async () => {
    const minion = c.minions.get('one')!;
    const jids = await Promise.all([
      asyncJob('one', 'test.sleep', '60'),
      asyncJob('one', 'test.sleep', '60'),
    ]);
    // both jobs are in the one job process (proc files name it)
    const pid = await until(() => {
      const pids = jobProcesses(minion.proc.pid!);
      return pids.length === 1 ? pids[0] : undefined;
    });
    await new Promise((r) => setTimeout(r, 1000));
    process.kill(pid!, 'SIGKILL');
    const stored = await Promise.all(jids.map((jid) => c.jobReturns(jid, (s) => 'one' in s, 15_000)));
    for (const s of stored) {
      expect(String(s.one?.return)).toMatch(/killed by SIGKILL/);
      expect(s.one?.retcode).toBe(1);
    }
    const again = await c.saltJson(['one', 'test.ping']);
    expect(again.data).toEqual({ one: true });
  }, 60_000);

  it('saltutil.kill_job stops only its job when the job process is shared, and the other jobs go on', async () => {
    const [victim, bystander] = await Promise.all([
      asyncJob('one', 'test.sleep', '60'),
      asyncJob('one', 'test.sleep', '6'),
    ]);
    // both are running before one is killed (a loaded machine may take a while to start them)
    await until(() => running('one', victim));
    await until(() => running('one', bystander));
    const killed = await c.saltJson(['one', 'saltutil.kill_job', victim]);
    expect(String(killed.data.one)).toMatch(/alone is stopped/);
    const [v, b] = await Promise.all([
      c.jobReturns(victim, (s) => 'one' in s, 15_000),
      c.jobReturns(bystander, (s) => 'one' in s, 15_000),
    ]);
    expect(String(v.one?.return)).toMatch(/^ERROR: .*abort/i);
    expect(b.one?.return).toBe(true);
  }, 60_000);

  it("process_count_max bounds the jobs running at once: the next waits for a slot (Salt's warning), then runs", async () => {
    const minion = c.minions.get('slots')!;
    const jids = await Promise.all([
      asyncJob('slots', 'test.sleep', '1'),
      asyncJob('slots', 'test.sleep', '1'),
    ]);
    const stored = await Promise.all(jids.map((jid) => c.jobReturns(jid, (s) => 'slots' in s, 15_000)));
    for (const s of stored) expect(s.slots?.return).toBe(true);
    expect(minion.out).toMatch(/Maximum number of processes reached while executing jid \d+, waiting/);
  }, 60_000);

  it('test.ping runs in the main process: it answers while every job slot is taken', async () => {
    const sleeper = await asyncJob('slots', 'test.sleep', '6');
    await new Promise((r) => setTimeout(r, 500));
    const started = Date.now();
    const { data } = await c.saltJson(['slots', 'test.ping', '-t', '4']);
    expect(data.slots).toBe(true);
    // a job process would have waited for the sleep's slot (6 s, past the 4 s timeout)
    expect(Date.now() - started).toBeLessThan(4_000);
    // with returners named, test.ping goes to a job process and waits for the slot like any job
    const withReturner = await asyncJob('slots', 'test.ping', '--return', 'local_cache');
    const sleepDone = (await c.jobReturns(sleeper, (s) => 'slots' in s, 15_000)).slots;
    expect(sleepDone?.return).toBe(true);
    const pinged = await c.jobReturns(withReturner, (s) => 'slots' in s, 15_000);
    expect(pinged.slots?.return).toBe(true);
    expect(c.minions.get('slots')!.out).toContain(`executing jid ${withReturner}, waiting`);
  }, 60_000);

  it('starts a job process only for a job that needs one, and retires it after job_process_idle_timeout', async () => {
    const pid = c.minions.get('idle')!.proc.pid!;
    const none = (): true | undefined => (jobProcesses(pid).length === 0 ? true : undefined);
    // started and answered test.ping (inline): its main process alone
    await until(none);
    const first = await c.saltJson(['idle', 'cmd.run', 'echo first']);
    expect(first.data).toEqual({ idle: 'first' });
    // idle for 1 s: the process exits, and the next job starts a new one
    await until(none);
    const again = await c.saltJson(['idle', 'cmd.run', 'echo again']);
    expect(again.data).toEqual({ idle: 'again' });
    await until(none);
  }, 60_000);

  it('keeps an idle job process for job_process_idle_timeout (30 s by default)', async () => {
    const pid = c.minions.get('pool')!.proc.pid!;
    const before = jobProcesses(pid);
    const r = await c.saltJson(['pool', 'cmd.run', 'echo kept']);
    expect(r.data).toEqual({ pool: 'kept' });
    const after = jobProcesses(pid);
    expect(after.length).toBeGreaterThan(0);
    await new Promise((res) => setTimeout(res, 3000));
    // a few seconds idle: the process that ran the job is still there
    expect(jobProcesses(pid).filter((p) => after.includes(p) || before.includes(p)).length).toBeGreaterThan(
      0,
    );
  }, 60_000);
});
