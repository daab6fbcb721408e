/**
 * sdb through real daemons: a minion whose config holds `sdb://` values (resolved when it loads
 * its config), the `sdb` module in job processes with YAML and SQLite stores, the master's pillar
 * templates calling `salt['sdb.get']`, the `sdb` runner with a driver from the master's
 * `sdb_dirs`, a broken profile answered with a coded error, and no value read in any log.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from '../../tools/local-cluster.js';

const MASTER_SECRET = 'pass-from-master-7f3a';
const MINION_SECRET = 'tok-m1-secret-91cd';

describe('sdb through real daemons', () => {
  const master: Record<string, unknown> = {};
  const c = new Cluster({ master, quiet: true });
  const files = join(c.root, 'sdb-files');
  const pillarRoot = join(c.root, 'srv', 'pillar');

  beforeAll(async () => {
    mkdirSync(join(files, 'drivers'), { recursive: true });
    mkdirSync(pillarRoot, { recursive: true });
    writeFileSync(join(files, 'master.yaml'), `db:\n  user: admin-from-master\n  pass: ${MASTER_SECRET}\n`);
    writeFileSync(join(files, 'minion.yaml'), `token: ${MINION_SECRET}\n`);
    writeFileSync(
      join(files, 'drivers', 'memo.mjs'),
      "export default { name: 'memo', get: (key, profile) => profile.prefix + key };\n",
    );
    writeFileSync(join(pillarRoot, 'top.sls'), "base:\n  '*':\n    - p\n");
    writeFileSync(
      join(pillarRoot, 'p.sls'),
      "db_user: {{ salt['sdb.get']('sdb://vault/db:user') }}\ndb_pass_ref: sdb://vault/db:pass\n",
    );
    Object.assign(master, {
      pillar_roots: { base: [pillarRoot] },
      vault: { driver: 'yaml', files: [join(files, 'master.yaml')] },
      memo_prof: { driver: 'memo', prefix: 'memo:' },
      sdb_dirs: [join(files, 'drivers')],
      log_level_logfile: 'debug',
    });
    await c.startMaster();
    await c.startMinion('m1', {
      local_yaml: { driver: 'yaml', files: [join(files, 'minion.yaml')] },
      kv: { driver: 'sqlite3', database: join(files, 'kv.sqlite') },
      badprof: { driver: 'nosuch' },
      api_token: 'sdb://local_yaml/token',
      log_level_logfile: 'debug',
    });
  }, 90_000);
  afterAll(() => c.stop());

  it('resolves sdb:// values of the minion config when the minion loads it (config.get)', async () => {
    const r = await c.saltJson(['m1', 'config.get', 'api_token']);
    expect(r.data).toEqual({ m1: MINION_SECRET });
  });

  it('runs the sdb module in a job process: YAML reads, SQLite writes and reads, a hash made once', async () => {
    expect((await c.saltJson(['m1', 'sdb.get', 'sdb://local_yaml/token'])).data).toEqual({
      m1: MINION_SECRET,
    });
    expect((await c.saltJson(['m1', 'sdb.set', 'sdb://kv/color', 'blue'])).data).toEqual({ m1: true });
    expect((await c.saltJson(['m1', 'sdb.get', 'sdb://kv/color'])).data).toEqual({ m1: 'blue' });
    const first = (await c.saltJson(['m1', 'sdb.get_or_set_hash', 'sdb://kv/pw', '16'])).data.m1;
    expect(first).toMatch(/^.{16}$/);
    expect((await c.saltJson(['m1', 'sdb.get_or_set_hash', 'sdb://kv/pw', '16'])).data.m1).toBe(first);
  });

  it("renders the master's pillar templates with salt['sdb.get'] and the master's profiles", async () => {
    const r = await c.saltJson(['m1', 'pillar.items']);
    expect(r.data.m1).toEqual({ db_user: 'admin-from-master', db_pass_ref: 'sdb://vault/db:pass' });
  });

  it('answers a profile whose driver does not exist with a coded error, and the minion stays up', async () => {
    const r = await c.saltJson(['m1', 'sdb.get', 'sdb://badprof/x']);
    expect(r.data.m1).toBe("ERROR: 'nosuch.get' is not available: no sdb driver is named 'nosuch'");
    expect((await c.saltJson(['m1', 'test.ping'])).data).toEqual({ m1: true });
  });

  it("runs the sdb runner with the master's profiles and a driver from its sdb_dirs", async () => {
    const get = async (uri: string) => {
      const r = await c.saltRun(['--out', 'json', 'sdb.get', uri]);
      expect(r.code).toBe(0);
      return JSON.parse(r.stdout) as unknown;
    };
    expect(await get('sdb://vault/db:user')).toBe('admin-from-master');
    expect(await get('sdb://memo_prof/abc')).toBe('memo:abc');
    expect(await get('sdb://nosuch/abc')).toBe('sdb://nosuch/abc');
  });

  it('writes no value read from sdb to any log, at debug level', () => {
    const logs = [join(c.root, 'master.log'), join(c.root, 'minions', 'm1', 'minion.log')].map((p) =>
      readFileSync(p, 'utf8'),
    );
    expect(logs.every((l) => l.length > 0)).toBe(true);
    for (const text of logs) {
      expect(text).not.toContain(MASTER_SECRET);
      expect(text).not.toContain(MINION_SECRET);
    }
  });
});
