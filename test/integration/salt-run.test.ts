import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventListener, masterEventAddresses } from '../../kernel/bus/event-bus.js';
import type { SaltEvent } from '../../kernel/jobs/types.js';
import { Cluster } from '../../tools/local-cluster.js';

/** Custom runners the tests place in a `runner_dirs` folder. */
const CUSTOM_RUNNER = `
export default {
  name: 'custom',
  functions: {
    boom: { run: () => { throw new Error('custom runner exploded'); } },
    crash: { run: () => { process.exit(7); } },
    hang: { run: () => new Promise(() => {}) },
    spin: { run: () => { for (;;) {} } },
    fail: { run: (ctx) => { ctx.setRetcode(3); return 'failed on purpose'; } },
  },
};
`;

function json(stdout: string): unknown {
  return JSON.parse(stdout);
}

describe('salt-run: runners through the master', () => {
  const master: Record<string, unknown> = { timeout: 3, gather_job_timeout: 2 };
  const c = new Cluster({ master });
  beforeAll(async () => {
    const runnerDir = join(c.root, 'runners');
    mkdirSync(runnerDir, { recursive: true });
    writeFileSync(join(runnerDir, 'custom.mjs'), CUSTOM_RUNNER);
    master.runner_dirs = [runnerDir];
    master.mdrv = { driver: 'mdrv' };
    master.file_roots = { base: [join(c.root, 'srv', 'salt')] };
    await c.startMaster();
    await c.startMinion('m1');
    await c.startMinion('m2');
  }, 60_000);
  afterAll(() => c.stop());

  it('test.arg echoes args and kwargs (json)', async () => {
    const r = await c.saltRun(['--out', 'json', 'test.arg', 'a', '1', 'k=v']);
    expect(r.code).toBe(0);
    expect(json(r.stdout)).toEqual({ args: ['a', 1], kwargs: { k: 'v' } });
  });

  it('prints nested output by default', async () => {
    const r = await c.saltRun(['test.metasyntactic', 'locality=uk']);
    expect(r.stdout).toBe('- wibble\n- wobble\n- wubble\n- flob\n');
    expect(r.code).toBe(0);
  });

  it('test.stdout_print prints what the runner printed, then its return', async () => {
    const r = await c.saltRun(['test.stdout_print']);
    expect(r.stdout).toBe('foo\nbar\n');
  });

  it('fires salt/run/<jid>/new and /ret on the master bus', async () => {
    const listener = new EventListener(masterEventAddresses(join(c.root, 'var/run/salt/master')), [
      'salt/run/',
    ]);
    await listener.ready(5000);
    const seen: SaltEvent[] = [];
    const collecting = (async () => {
      for await (const ev of listener) {
        seen.push(ev);
        if (ev.tag.endsWith('/ret')) break;
      }
    })();
    const r = await c.saltRun(['test.arg', 'x']);
    expect(r.code).toBe(0);
    await collecting;
    listener.close();
    const tags = seen.map((e) => e.tag.replace(/\d{20}/, 'JID'));
    expect(tags).toEqual(['salt/run/JID/new', 'salt/run/JID/ret']);
    const ret = seen[1]!.data;
    expect(ret).toMatchObject({ fun: 'runner.test.arg', fun_args: ['x'], success: true });
    expect(Object.keys(ret).sort()).toEqual([
      '_stamp',
      'fun',
      'fun_args',
      'jid',
      'return',
      'success',
      'user',
    ]);
  });

  it('--async prints the jid without waiting', async () => {
    const r = await c.saltRun(['--async', 'test.sleep', '1']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toMatch(/^\d{20}$/);
    expect(r.stderr).toContain('Running in asynchronous mode');
  });

  it('a runner that throws: a clear error, exit 1, and the master keeps serving', async () => {
    const r = await c.saltRun(['custom.boom']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('Exception occurred in runner custom.boom');
    expect(r.stdout).toContain('custom runner exploded');
    const crash = await c.saltRun(['custom.crash']);
    expect(crash.code).toBe(1);
    expect(crash.stdout).toContain('the process running runner custom.crash died: exit code 7');
    const after = await c.saltRun(['--out', 'json', 'test.arg', 'still']);
    expect(json(after.stdout)).toEqual({ args: ['still'], kwargs: {} });
    expect(c.master!.alive).toBe(true);
  });

  it('a runner that hangs is stopped after -t and salt-run says so', async () => {
    const t0 = Date.now();
    const r = await c.saltRun(['-t', '2', 'custom.hang']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('runner custom.hang did not finish within 2 s and was stopped');
    const spin = await c.saltRun(['-t', '1', 'custom.spin']);
    expect(spin.code).toBe(1);
    expect(spin.stdout).toContain('did not finish within 1 s');
    expect(Date.now() - t0).toBeLessThan(20_000);
  });

  it('a runner that sets a retcode makes salt-run exit with it', async () => {
    const r = await c.saltRun(['custom.fail']);
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('failed on purpose\n');
  });

  it('an unknown runner function is a clear error', async () => {
    const r = await c.saltRun(['nosuch.fun']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("'nosuch.fun' is not available.\n");
  });

  it('jobs.lookup_jid / list_job / print_job / list_jobs of a salt job', async () => {
    const pub = await c.salt(['--out', 'json', '-v', '*', 'test.echo', 'hello']);
    const jid = /jid (\d{20})/.exec(pub.stdout)?.[1] ?? '';
    expect(jid).toMatch(/^\d{20}$/);
    await c.jobReturns(jid, (s) => Object.keys(s).length === 2);
    const look = await c.saltRun(['--out', 'json', 'jobs.lookup_jid', jid]);
    expect(json(look.stdout)).toEqual({ m1: 'hello', m2: 'hello' });
    const printed = json((await c.saltRun(['--out', 'json', 'jobs.print_job', jid])).stdout) as Record<
      string,
      Record<string, unknown>
    >;
    expect(printed[jid]).toMatchObject({
      Function: 'test.echo',
      Arguments: ['hello'],
      Target: '*',
      'Target-type': 'glob',
    });
    expect(Object.keys(printed[jid]!.Result as object).sort()).toEqual(['m1', 'm2']);
    const listed = json(
      (await c.saltRun(['--out', 'json', 'jobs.list_jobs', 'search_function=test.echo'])).stdout,
    ) as Record<string, Record<string, unknown>>;
    expect(Object.keys(listed)).toContain(jid);
    expect(Object.keys(listed[jid]!).sort()).toEqual(
      expect.arrayContaining(['Arguments', 'Function', 'StartTime', 'Target', 'Target-type', 'User']),
    );
    const ok = await c.saltRun(['--out', 'json', 'jobs.exit_success', jid]);
    expect(json(ok.stdout)).toEqual({ m1: true, m2: true });
    expect(ok.code).toBe(0);
  });

  it('jobs with a bad jid, an unknown jid, and a search that matches nothing', async () => {
    const bad = await c.saltRun(['jobs.lookup_jid', 'notajid']);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain('"notajid" is not a jid');
    const unknown = await c.saltRun(['jobs.lookup_jid', '20000101000000000000']);
    expect(unknown.code).toBe(1);
    expect(unknown.stdout).toContain('was not found in the job cache');
    const none = await c.saltRun(['--out', 'json', 'jobs.list_jobs', 'search_function=no.such.*']);
    expect(none.code).toBe(0);
    expect(json(none.stdout)).toEqual({});
    expect(none.stderr).toContain('No jobs in the job cache match the search.');
  });

  it('jobs.active lists a running job', async () => {
    const pub = await c.salt(['--async', 'm1', 'test.sleep', '20']);
    const jid = /(\d{20})/.exec(pub.stdout)?.[1] ?? '';
    // the job may take a while to start on a loaded machine: ask until it shows (at most 15 s)
    let active: Record<string, Record<string, unknown>> = {};
    for (let i = 0; i < 15 && !active[jid]; i++) {
      active = json((await c.saltRun(['--out', 'json', 'jobs.active'])).stdout) as typeof active;
      if (!active[jid]) await new Promise((r) => setTimeout(r, 1000));
    }
    expect(active[jid]).toMatchObject({ Function: 'test.sleep', Running: [{ m1: expect.any(Number) }] });
  });

  it('manage.up/status/present/versions, then manage.down with one minion stopped', async () => {
    expect(json((await c.saltRun(['--out', 'json', 'manage.up'])).stdout)).toEqual(['m1', 'm2']);
    expect(json((await c.saltRun(['--out', 'json', 'manage.present'])).stdout)).toEqual(['m1', 'm2']);
    const versions = json((await c.saltRun(['--out', 'json', 'manage.versions'])).stdout) as Record<
      string,
      unknown
    >;
    expect(versions['Up to date']).toEqual({ m1: '3006.18', m2: '3006.18' });
    expect(versions.Master).toBe('3006.18');
    await c.minions.get('m2')!.stop();
    await new Promise((r) => setTimeout(r, 500));
    expect(json((await c.saltRun(['--out', 'json', 'manage.status'])).stdout)).toEqual({
      up: ['m1'],
      down: ['m2'],
    });
    expect(json((await c.saltRun(['--out', 'json', 'manage.not_present'])).stdout)).toEqual(['m2']);
    expect(json((await c.saltRun(['--out', 'json', 'manage.down', 'removekeys=True'])).stdout)).toEqual([
      'm2',
    ]);
    const keys = await c.saltKey(['-L', '--out', 'json']);
    expect((json(keys.stdout) as { minions: string[] }).minions).toEqual(['m1']);
  }, 60_000);

  it('event.send fires an event and doc.runner documents runners', async () => {
    const listener = new EventListener(masterEventAddresses(join(c.root, 'var/run/salt/master')), ['my/tag']);
    await listener.ready(5000);
    const r = await c.saltRun(['event.send', 'my/tag', 'data={"a": 1}']);
    expect(r.code).toBe(0);
    const it = listener[Symbol.asyncIterator]();
    const ev = (await it.next()).value as SaltEvent;
    listener.close();
    expect(ev.tag).toBe('my/tag');
    expect(ev.data).toMatchObject({ a: 1 });
    const docs = json((await c.saltRun(['--out', 'json', 'doc.runner', 'jobs'])).stdout) as Record<
      string,
      string
    >;
    expect(Object.keys(docs)).toContain('jobs.lookup_jid');
    const d = await c.saltRun(['-d', 'test']);
    expect(d.stdout).toContain('test.arg:\n');
  });

  it('saltutil.sync_runners copies salt://_runners into extension_modules', async () => {
    const dir = join(c.root, 'srv/salt/_runners');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'synced.mjs'),
      "export default { name: 'synced', functions: { hi: { run: () => 'hi from synced' } } };\n",
    );
    const r = await c.saltRun(['--out', 'json', 'saltutil.sync_runners']);
    expect(json(r.stdout)).toEqual(['runners.synced']);
    const hi = await c.saltRun(['synced.hi']);
    expect(hi.stdout).toBe('hi from synced\n');
  });

  it("saltutil.sync_sdb copies salt://_sdb; the sdb runner finds the driver with the master's profile", async () => {
    const dir = join(c.root, 'srv/salt/_sdb');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'mdrv.mjs'), "export default { name: 'mdrv', get: (key) => 'master:' + key };\n");
    const r = await c.saltRun(['--out', 'json', 'saltutil.sync_sdb']);
    expect(json(r.stdout)).toEqual(['sdb.mdrv']);
    const got = await c.saltRun(['--out', 'json', 'sdb.get', 'sdb://mdrv/k1']);
    expect(json(got.stdout)).toBe('master:k1');
  });

  it("saltutil.sync_all syncs every form tsalt has a plugin kind for, in Salt's return shape", async () => {
    for (const [form, file] of [
      ['_states', 'st1.mjs'],
      ['_grains', 'g1.mjs'],
      ['_output', 'o1.mjs'],
      ['_engines', 'e1.mjs'],
    ] as const) {
      mkdirSync(join(c.root, 'srv/salt', form), { recursive: true });
      writeFileSync(join(c.root, 'srv/salt', form, file), 'export default {};\n');
    }
    const r = await c.saltRun(['--out', 'json', 'saltutil.sync_all']);
    const all = json(r.stdout) as Record<string, string[]>;
    // Salt 3006.18's keys, in its order
    expect(Object.keys(all).join(' ')).toBe(
      'clouds modules states grains renderers returners output proxymodules runners wheel engines thorium queues pillar utils sdb cache fileserver tops tokens serializers executors roster',
    );
    expect(all).toMatchObject({
      states: ['states.st1'],
      grains: ['grains.g1'],
      output: ['output.o1'],
      engines: ['engines.e1'],
      runners: [],
      sdb: [],
      renderers: [],
    });
    expect(existsSync(join(c.root, 'var/cache/salt/master/extmods/output/o1.mjs'))).toBe(true);
  });

  it("no function prints every runner's doc, as Salt does; an unknown option exits 64", async () => {
    const r = await c.saltRun([]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^jobs\.list_jobs:$/m);
    const bogus = await c.saltRun(['--bogus']);
    expect(bogus.code).toBe(64);
    expect(bogus.stderr).toContain('salt-run: error: no such option: --bogus');
    const v = await c.saltRun(['--version']);
    expect(v.stdout).toMatch(/^salt-run /);
  });
});
