import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster, runCli } from '../../tools/local-cluster.js';

// Salt 3006.18 runs saltutil.runner / saltutil.wheel (and the salt.runner / salt.wheel states)
// on a minion with the master's config read from the `master` file beside the minion's; with
// no master running, saltutil.cmd (salt.function) fails with "The salt master could not be
// contacted. Is master running?". 10 of 14 salt-call --local runs identical (the other 4 are
// an unknown function's error text).
describe('runner and wheel functions on a masterless minion', () => {
  const root = mkdtempSync(join(tmpdir(), 'tsalt-t-saltmod-master-'));
  const conf = join(root, 'etc');
  const call = async (...args: string[]) => {
    const r = await runCli('salt-call', ['-c', conf, '--local', '--out', 'json', ...args], 60_000);
    return { code: r.code, local: (JSON.parse(r.stdout) as { local: unknown }).local };
  };
  const state = async (...args: string[]) => {
    const { code, local } = await call('state.single', ...args);
    return { code, ret: Object.values(local as Record<string, Record<string, unknown>>)[0] ?? {} };
  };

  beforeAll(() => {
    mkdirSync(conf, { recursive: true });
    const m = join(root, 'master-root');
    writeFileSync(
      join(conf, 'minion'),
      `id: mf1\nfile_client: local\nroot_dir: ${join(root, 'root')}\nlog_level: quiet\n`,
    );
    writeFileSync(
      join(conf, 'master'),
      `root_dir: ${m}\npki_dir: ${join(m, 'pki')}\ncachedir: ${join(m, 'cache')}\nsock_dir: ${join(m, 'sock')}\n`,
    );
    mkdirSync(join(m, 'pki', 'minions'), { recursive: true });
    writeFileSync(join(m, 'pki', 'minions', 'known1'), 'not a real key\n');
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('salt.runner runs the runner here and reports its return', async () => {
    const { code, ret } = await state('salt.runner', 'name=test.arg', 'foo=bar');
    expect(code).toBe(0);
    expect(ret).toMatchObject({
      name: 'test.arg',
      changes: { return: { args: [], kwargs: { foo: 'bar' } } },
      result: true,
      comment: "Runner function 'test.arg' executed.",
    });
    expect(ret.__jid__).toMatch(/^\d{20}$/);
  });

  it("salt.wheel reads the master's pki_dir from the master file beside the minion's", async () => {
    const { code, ret } = await state('salt.wheel', 'name=key.list_all');
    expect(code).toBe(0);
    expect(ret).toMatchObject({
      changes: { return: { minions: ['known1'], minions_pre: [] } },
      result: true,
      comment: "Wheel function 'key.list_all' executed.",
    });
  });

  it('saltutil.runner returns the bare return, or the full one', async () => {
    expect((await call('saltutil.runner', 'test.arg', 'foo=bar')).local).toEqual({
      args: [],
      kwargs: { foo: 'bar' },
    });
    const full = (await call('saltutil.runner', 'test.arg', 'full_return=True')).local;
    expect(full).toMatchObject({
      fun: 'runner.test.arg',
      user: 'UNKNOWN',
      fun_args: [{ __pub_user: 'UNKNOWN' }],
      return: { args: [], kwargs: {} },
      success: true,
    });
  });

  it('saltutil.wheel returns the full return', async () => {
    expect((await call('saltutil.wheel', 'key.list_all')).local).toMatchObject({
      fun: 'wheel.key.list_all',
      user: 'UNKNOWN',
      fun_args: [],
      return: { minions: ['known1'] },
      success: true,
    });
  });

  it('an unknown runner is a failed state with a KeyError', async () => {
    const { code, ret } = await state('salt.runner', 'name=nosuch.fn');
    expect(code).toBe(1);
    expect(ret.result).toBe(false);
    expect(String(ret.comment)).toMatch(
      /^An exception occurred in this state: Traceback[\s\S]*KeyError: 'nosuch.fn'/,
    );
  });

  it('salt.function with no master running says so, as Salt does', async () => {
    const { code, ret } = await state('salt.function', 'name=test.ping', 'tgt=x');
    expect(code).toBe(1);
    expect(ret).toMatchObject({
      result: false,
      changes: {},
      comment: 'The salt master could not be contacted. Is master running?',
    });
  });
});

describe('runner, wheel and function states on a minion beside its master', () => {
  const c = new Cluster({ quiet: true });
  beforeAll(async () => {
    await c.startMaster();
    const dir = c.minionConfDir('mm');
    mkdirSync(dir, { recursive: true });
    copyFileSync(join(c.confDir, 'master'), join(dir, 'master'));
    await c.startMinion('mm');
  }, 60_000);
  afterAll(() => c.stop());

  it('salt.runner, salt.wheel and salt.function run from a job the master published', async () => {
    const runner = await c.saltJson(['mm', 'state.single', 'salt.runner', 'name=test.arg', 'a=1']);
    expect(Object.values(runner.data.mm as Record<string, unknown>)[0]).toMatchObject({
      result: true,
      changes: { return: { args: [], kwargs: { a: 1 } } },
    });
    const wheel = await c.saltJson(['mm', 'saltutil.wheel', 'key.list_all']);
    expect(wheel.data.mm).toMatchObject({ return: { minions: ['mm'] }, success: true });
    const fn = await c.saltJson(['mm', 'state.single', 'salt.function', 'name=test.ping', 'tgt=mm']);
    expect(Object.values(fn.data.mm as Record<string, unknown>)[0]).toMatchObject({
      result: true,
      changes: { ret: { mm: true } },
      comment: 'Function ran successfully. Function test.ping ran on mm.',
    });
  }, 90_000);
});
