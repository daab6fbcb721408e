import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventListener, masterEventAddresses } from '../../kernel/bus/event-bus.js';
import type { SaltEvent } from '../../kernel/jobs/types.js';
import { Cluster } from '../../tools/local-cluster.js';

async function until<T>(probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Collects the master bus events under `prefixes` into `seen`; resolves once subscribed. */
async function collect(c: Cluster, prefixes: string[], seen: SaltEvent[]): Promise<EventListener> {
  const events = new EventListener(masterEventAddresses(join(c.root, 'var/run/salt/master')), prefixes);
  await events.ready();
  void (async () => {
    for await (const ev of events) seen.push(ev);
  })();
  return events;
}

/** Lines a job appended to `file`, one per run. */
function runs(file: string): string[] {
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
}

describe('the minion scheduler runs jobs, and the schedule module manages it', () => {
  const pillarRoot = mkdtempSync(join(tmpdir(), 'sched-pillar-'));
  const c = new Cluster({ master: { pillar_roots: { base: [pillarRoot] } } });
  let events: EventListener;
  const seen: SaltEvent[] = [];
  const mark = (name: string) => join(c.root, `${name}.runs`);

  beforeAll(async () => {
    writeFileSync(join(pillarRoot, 'top.sls'), "base:\n  's1':\n    - sched\n");
    writeFileSync(
      join(pillarRoot, 'sched.sls'),
      `schedule:\n  from_pillar:\n    function: cmd.run\n    args: ['echo x >> ${mark('from_pillar')}']\n    seconds: 1\n`,
    );
    await c.startMaster();
    events = await collect(c, ['salt/job/', 'salt/minion/'], seen);
    await c.startMinion('s1', {
      schedule: {
        every_second: { function: 'cmd.run', args: [`echo x >> ${mark('every_second')}`], seconds: 1 },
        cron_job: { function: 'cmd.run', args: [`echo x >> ${mark('cron_job')}`], cron: '* * * * * */2' },
        slow: {
          function: 'cmd.run',
          args: [`echo start >> ${mark('slow')}; sleep 4`],
          seconds: 1,
          maxrunning: 1,
          return_job: false,
        },
        bad_cron: { function: 'test.ping', cron: 'not a cron' },
        bad_key: { function: 'test.ping', seconds: 5, colour: 'blue' },
        negative: { function: 'test.ping', seconds: -5 },
        no_function: { seconds: 5 },
        bad_when: { function: 'test.ping', when: 'the day after never' },
        reporter: { function: 'test.echo', args: ['hello'], seconds: 1, metadata: { origin: 'it' } },
        uncached: { function: 'test.echo', args: ['quiet'], seconds: 1, return_job: 'nocache' },
      },
    });
  }, 90_000);

  afterAll(async () => {
    events.close();
    await c.stop();
  });

  it('a configured 1-second job runs about every second', async () => {
    await until(() => (runs(mark('every_second')).length >= 3 ? true : undefined));
  });

  it('a job from the pillar runs, lists, and cannot be deleted as a configured one', async () => {
    await until(() => (runs(mark('from_pillar')).length >= 2 ? true : undefined));
    const list = await c.saltJson(['s1', 'schedule.list', 'return_yaml=False', 'where=pillar']);
    expect(Object.keys(list.data.s1 as object)).toEqual(['from_pillar']);
    const del = await c.saltJson(['s1', 'schedule.delete', 'from_pillar']);
    expect(del.data.s1).toEqual({
      comment: 'Failed to delete job from_pillar from schedule.',
      result: false,
      changes: {},
    });
    // the events carry the configured jobs only: the pillar's stay off the bus
    await c.saltJson(['s1', 'schedule.enable']);
    await until(() => seen.find((e) => e.tag === 'salt/minion/s1/schedule_enabled_complete'));
    const scheduleEvents = seen.filter((e) => e.tag.startsWith('salt/minion/s1/schedule'));
    expect(scheduleEvents.some((e) => JSON.stringify(e.data).includes('from_pillar'))).toBe(false);
  });

  it('a cron expression with a seconds field fires', async () => {
    await until(() => (runs(mark('cron_job')).length >= 2 ? true : undefined));
  });

  it('maxrunning holds: a 4-second job scheduled every second never overlaps itself', async () => {
    await until(() => (runs(mark('slow')).length >= 2 ? true : undefined), 40_000);
    // started at most once per 4 s window: two starts take at least ~4 s, never one per second
    // a scheduled job is an ordinary running job: saltutil.running shows it with its schedule name
    await until(async () => {
      const running = await c.saltJson(['s1', 'saltutil.running']);
      const jobs = Array.isArray(running.data.s1) ? (running.data.s1 as Array<Record<string, unknown>>) : [];
      return jobs.some((j) => j.schedule === 'slow') ? true : undefined;
    });
    const count = runs(mark('slow')).length;
    await new Promise((r) => setTimeout(r, 3000));
    expect(runs(mark('slow')).length - count).toBeLessThanOrEqual(1);
  });

  it('bad entries are clear errors in the log, and the other jobs keep running', async () => {
    const out = () => c.minions.get('s1')!.out;
    await until(() => (out().includes('Invalid cron string. Ignoring job bad_cron.') ? true : undefined));
    expect(out()).toContain('Invalid option "colour" in scheduled job bad_key');
    expect(out()).toContain('Invalid seconds -5');
    expect(out()).toContain('Scheduled job no_function names no function');
    expect(out()).toContain('Invalid date string the day after never. Ignoring job bad_when.');
    const before = runs(mark('every_second')).length;
    await until(() => (runs(mark('every_second')).length > before ? true : undefined));
  });

  it('return_job returns reach the master, with `schedule`, and jobs.lookup_jid finds them', async () => {
    const ev = await until(() =>
      seen.find((e) => /^salt\/job\/\d+\/ret\/s1$/.test(e.tag) && e.data.schedule === 'reporter'),
    );
    expect(ev.data).toMatchObject({
      fun: 'test.echo',
      fun_args: ['hello'],
      return: 'hello',
      metadata: { origin: 'it' },
    });
    const jid = String(ev.data.jid);
    const look = await c.saltRun(['--out', 'json', 'jobs.lookup_jid', jid]);
    expect(JSON.parse(look.stdout)).toEqual({ s1: 'hello' });
    // return_job: nocache: the event, and nothing in the job cache
    const quiet = await until(() => seen.find((e) => e.tag === 'salt/job/nocache/ret/s1'));
    expect(quiet.data).toMatchObject({ schedule: 'uncached', return: 'quiet' });
    // a job with return_job: False sends nothing
    expect(seen.some((e) => e.data.schedule === 'slow')).toBe(false);
  });

  it('schedule.add → list → delete: the added job runs, and stops once deleted', async () => {
    const file = mark('added');
    const add = await c.saltJson([
      's1',
      'schedule.add',
      'added',
      'function=cmd.run',
      `job_args=["echo x >> ${file}"]`,
      'seconds=1',
    ]);
    expect(add.data).toEqual({
      s1: { comment: 'Added job: added to schedule.', result: true, changes: { added: 'added' } },
    });
    const ev = await until(() => seen.find((e) => e.tag === 'salt/minion/s1/schedule_add_complete'));
    expect(ev.data).toMatchObject({ complete: true });
    await until(() => (runs(file).length >= 2 ? true : undefined));
    const list = await c.saltJson(['s1', 'schedule.list', 'return_yaml=False']);
    expect((list.data.s1 as Record<string, unknown>).added).toEqual({
      function: 'cmd.run',
      seconds: 1,
      args: [`echo x >> ${file}`],
      maxrunning: 1,
      name: 'added',
      enabled: true,
      jid_include: true,
    });
    const del = await c.saltJson(['s1', 'schedule.delete', 'added']);
    expect(del.data).toEqual({
      s1: { comment: 'Deleted Job added from schedule.', result: true, changes: { added: 'removed' } },
    });
    // a run started just before the delete may still be writing: let it end first
    await new Promise((r) => setTimeout(r, 3000));
    const after = runs(file).length;
    await new Promise((r) => setTimeout(r, 2500));
    expect(runs(file).length).toBe(after);
  });

  it("a whole float given at run time stays a float, as Salt's lists it (seconds: 1.0)", async () => {
    const add = await c.saltJson([
      's1',
      'schedule.add',
      'floaty',
      'function=test.ping',
      'seconds=1.0',
      'splay=2.0',
    ]);
    expect(add.data).toEqual({
      s1: { comment: 'Added job: floaty to schedule.', result: true, changes: { floaty: 'added' } },
    });
    const json = await c.saltJson(['s1', 'schedule.list', 'return_yaml=False']);
    expect(json.raw.stdout).toMatch(/"floaty": \{[^}]*"seconds": 1\.0,[^}]*"splay": 2\.0/);
    const yaml = await c.saltJson(['s1', 'schedule.list']);
    expect(String(yaml.data.s1)).toContain('  floaty:\n    enabled: true\n    function: test.ping\n');
    expect(String(yaml.data.s1)).toContain('    seconds: 1.0\n    splay: 2.0\n');
    await c.saltJson(['s1', 'schedule.delete', 'floaty']);
  });

  it('schedule.add refuses bad input with the reason, as the log does', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['bad1', 'function=test.ping', 'cron=nope'], /Invalid cron string/],
      [['bad2', 'function=test.ping', 'when=not-a-date-at-all'], /for "when" in invalid/],
      [['bad3', 'function=nosuch.fun', 'seconds=5'], /'nosuch.fun' is not available/],
      [['bad4', 'function=test.ping', 'seconds=-3'], /Invalid seconds -3/],
      [['bad5'], /needs a function/],
    ];
    for (const [args, why] of cases) {
      const r = await c.saltJson(['s1', 'schedule.add', ...args]);
      const ret = r.data.s1 as { comment: string; result: boolean };
      expect(ret.result, args.join(' ')).toBe(false);
      expect(ret.comment).toMatch(why);
    }
    const list = await c.saltJson(['s1', 'schedule.list', 'return_yaml=False']);
    expect(Object.keys(list.data.s1 as object).filter((k) => k.startsWith('bad'))).toEqual([
      'bad_cron',
      'bad_key',
      'bad_when',
    ]);
  });

  it('schedule.save and a minion restart keep an added job, its whole float a float', async () => {
    const file = mark('kept');
    await c.saltJson([
      's1',
      'schedule.add',
      'kept',
      'function=cmd.run',
      `job_args=["echo x >> ${file}"]`,
      'seconds=1.0',
    ]);
    const save = await c.saltJson(['s1', 'schedule.save']);
    expect(save.data).toEqual({ s1: { comment: 'Schedule (non-pillar items) saved.', result: true } });
    const saved = join(c.minionConfDir('s1'), 'minion.d', '_schedule.conf');
    expect(readFileSync(saved, 'utf8')).toContain('kept:');
    await c.minions.get('s1')!.stop();
    const stopped = runs(file).length;
    writeFileSync(join(c.root, 'restart.marker'), '');
    await c.startMinion('s1', {}); // the config file is rewritten without `schedule:`; the saved file has it
    await until(() => (runs(file).length > stopped + 1 ? true : undefined));
    const list = await c.saltJson(['s1', 'schedule.list', 'return_yaml=False']);
    expect(Object.keys(list.data.s1 as object)).toContain('kept');
    expect(list.raw.stdout).toMatch(/"kept": \{[^}]*"seconds": 1\.0,/);
  }, 90_000);
});

describe('the master scheduler runs runner functions', () => {
  const returnerDir = mkdtempSync(join(tmpdir(), 'sched-ret-'));
  const returned = join(returnerDir, 'returned.jsonl');
  const c = new Cluster({
    master: {
      returner_dirs: [returnerDir],
      schedule: {
        list_jobs: { function: 'jobs.list_jobs', seconds: 1 },
        down: { function: 'manage.down', seconds: 1, returner: 'filer' },
        broken: { function: 'jobs.list_jobs', cron: '61 * * * *' },
      },
    },
  });
  let events: EventListener;
  const seen: SaltEvent[] = [];

  beforeAll(async () => {
    writeFileSync(
      join(returnerDir, 'filer.mjs'),
      `import { appendFileSync } from 'node:fs';
export default { name: 'filer', returner(ret) { appendFileSync(${JSON.stringify(returned)}, JSON.stringify(ret) + '\\n'); } };
`,
    );
    await c.startMaster();
    events = await collect(c, ['salt/run/'], seen);
  }, 60_000);

  afterAll(async () => {
    events.close();
    await c.stop();
  });

  it('a 1-second master job runs its runner, as an ordinary runner job', async () => {
    const ret = await until(() =>
      seen.find((e) => /^salt\/run\/\d+\/ret$/.test(e.tag) && e.data.fun === 'runner.jobs.list_jobs'),
    );
    expect(ret.data.success).toBe(true);
    expect(c.master!.out).toContain('Invalid cron string. Ignoring job broken.');
  });

  it("a master job's returner gets the runner's return, with `schedule`", async () => {
    const line = await until(() =>
      existsSync(returned) ? readFileSync(returned, 'utf8').split('\n')[0] : undefined,
    );
    expect(JSON.parse(line)).toMatchObject({
      fun: 'manage.down',
      schedule: 'down',
      return: [],
      success: true,
    });
  });
});
