import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster, runCli } from '../../tools/local-cluster.js';

describe('saltutil.sync_modules: modules from the master file server', () => {
  const master: Record<string, unknown> = {};
  const c = new Cluster({ master, minion: { memo: { driver: 'memo' } } });
  const modules = join(c.root, 'srv', 'salt', '_modules');
  const hello = join(modules, 'hello.mjs');
  const writeHello = (text: string) =>
    writeFileSync(
      hello,
      `export default { name: 'hello', functions: { world: { run: () => ${JSON.stringify(text)} } } };\n`,
    );

  beforeAll(async () => {
    master.file_roots = { base: [join(c.root, 'srv', 'salt')] };
    mkdirSync(modules, { recursive: true });
    writeHello('hello world');
    await c.startMaster();
    await c.startMinion('m1');
  });
  afterAll(() => c.stop());

  it('a module only on the master is not available', async () => {
    const r = await c.saltJson(['m1', 'hello.world']);
    expect(String(r.data.m1)).toContain("'hello.world' is not available");
  });

  it('sync_modules downloads it and the next job runs it', async () => {
    const r = await c.saltJson(['m1', 'saltutil.sync_modules']);
    expect(r.data).toEqual({ m1: ['modules.hello'] });
    expect((await c.saltJson(['m1', 'hello.world'])).data).toEqual({ m1: 'hello world' });
  });

  it('a changed file is synced again and its new code runs', async () => {
    writeHello('hello again');
    expect((await c.saltJson(['m1', 'saltutil.sync_modules'])).data).toEqual({ m1: ['modules.hello'] });
    expect((await c.saltJson(['m1', 'hello.world'])).data).toEqual({ m1: 'hello again' });
    // nothing changed: nothing synced
    expect((await c.saltJson(['m1', 'saltutil.sync_modules'])).data).toEqual({ m1: [] });
  });

  it('a file removed on the master is removed by the next sync', async () => {
    rmSync(hello);
    expect((await c.saltJson(['m1', 'saltutil.sync_all'])).data.m1).toMatchObject({
      modules: [],
      states: [],
    });
    const r = await c.saltJson(['m1', 'hello.world']);
    expect(String(r.data.m1)).toContain("'hello.world' is not available");
  });

  it('a synced module named like a built-in shadows it, inline functions included', async () => {
    // test.ping runs in the minion's main process while it is the built-in one (inline-job.ts)
    expect((await c.saltJson(['m1', 'test.ping'])).data).toEqual({ m1: true });
    const shadow = join(modules, 'test.mjs');
    writeFileSync(
      shadow,
      "export default { name: 'test', functions: { ping: { inline: true, run: () => 'custom ping' } } };\n",
    );
    try {
      expect((await c.saltJson(['m1', 'saltutil.sync_modules'])).data).toEqual({ m1: ['modules.test'] });
      expect((await c.saltJson(['m1', 'test.ping'])).data).toEqual({ m1: 'custom ping' });
    } finally {
      rmSync(shadow);
      await c.saltJson(['m1', 'saltutil.sync_modules']);
    }
    expect((await c.saltJson(['m1', 'test.ping'])).data).toEqual({ m1: true });
  });

  it('refresh_modules and sys.reload_modules return True', async () => {
    expect((await c.saltJson(['m1', 'saltutil.refresh_modules'])).data).toEqual({ m1: true });
    expect((await c.saltJson(['m1', 'sys.reload_modules'])).data).toEqual({ m1: true });
    expect((await c.saltJson(['m1', 'test.ping'])).data).toEqual({ m1: true });
  });

  it('sync_returners brings a returner that the next --return uses', async () => {
    const returners = join(c.root, 'srv', 'salt', '_returners');
    const out = join(c.root, 'synced-returns.txt');
    mkdirSync(returners, { recursive: true });
    writeFileSync(
      join(returners, 'to-file.mjs'),
      `import { appendFileSync } from 'node:fs';\nexport default { name: 'to_file', async returner(ret) { appendFileSync(${JSON.stringify(out)}, ret.fun + ' ' + ret.id + '\\n'); } };\n`,
    );
    expect((await c.saltJson(['m1', 'saltutil.sync_returners'])).data).toEqual({ m1: ['returners.to-file'] });
    expect((await c.saltJson(['m1', 'test.ping', '--return', 'to_file'])).data).toEqual({ m1: true });
    for (let i = 0; i < 50 && !existsSync(out); i++) await new Promise((r) => setTimeout(r, 100));
    expect(readFileSync(out, 'utf8')).toBe('test.ping m1\n');
  });

  it('sync_sdb brings an sdb driver; a changed one is loaded anew by the next job', async () => {
    const sdbDir = join(c.root, 'srv', 'salt', '_sdb');
    const writeMemo = (prefix: string) =>
      writeFileSync(
        join(sdbDir, 'memo.mjs'),
        `export default { name: 'memo', get: (key) => ${JSON.stringify(prefix)} + key };\n`,
      );
    mkdirSync(sdbDir, { recursive: true });
    writeMemo('one:');
    const before = await c.saltJson(['m1', 'sdb.get', 'sdb://memo/k']);
    expect(String(before.data.m1)).toContain("no sdb driver is named 'memo'");
    expect((await c.saltJson(['m1', 'saltutil.sync_sdb'])).data).toEqual({ m1: ['sdb.memo'] });
    expect((await c.saltJson(['m1', 'sdb.get', 'sdb://memo/k'])).data).toEqual({ m1: 'one:k' });
    writeMemo('two:');
    const all = (await c.saltJson(['m1', 'saltutil.sync_all', 'refresh=False'])).data.m1 as Record<
      string,
      unknown
    >;
    expect(Object.keys(all).slice(0, 6)).toEqual(['clouds', 'beacons', 'modules', 'states', 'sdb', 'grains']);
    expect(all.sdb).toEqual(['sdb.memo']);
    // Salt refreshes whenever a synced folder changed, even with refresh=False
    expect((await c.saltJson(['m1', 'sdb.get', 'sdb://memo/k'])).data).toEqual({ m1: 'two:k' });
    expect((await c.saltJson(['m1', 'saltutil.sync_sdb'])).data).toEqual({ m1: [] });
    const bad = await c.saltJson(['m1', 'saltutil.sync_sdb', 'refresh=True']);
    expect(String(bad.data.m1)).toContain('The following keyword arguments are not valid: refresh=True');
  });

  it('salt-call syncs through its own connection to the master', async () => {
    writeHello('hello from salt-call');
    const call = await runCli('salt-call', [
      '-c',
      c.minionConfDir('m1'),
      '--out',
      'json',
      'saltutil.sync_modules',
    ]);
    expect(call.code).toBe(0);
    expect(JSON.parse(call.stdout)).toEqual({ local: ['modules.hello'] });
  });
});
