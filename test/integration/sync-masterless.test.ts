import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../tools/local-cluster.js';

/** `salt-call --local saltutil.sync_*`: Salt's file client reads the minion's own file_roots. */
describe('saltutil.sync_* without a master (file_client: local)', () => {
  const root = mkdtempSync(join(tmpdir(), 'tsalt-sync-local-'));
  const etc = join(root, 'etc');
  const srv = join(root, 'srv');
  const call = async (...args: string[]) => {
    const r = await runCli('salt-call', ['--local', '-c', etc, '--out', 'json', ...args]);
    return {
      code: r.code,
      out: r.stdout.trim() ? (JSON.parse(r.stdout) as { local: unknown }).local : undefined,
    };
  };

  beforeAll(() => {
    mkdirSync(etc, { recursive: true });
    mkdirSync(join(srv, '_sdb'), { recursive: true });
    writeFileSync(
      join(etc, 'minion'),
      `${JSON.stringify({
        id: 'local1',
        root_dir: join(root, 'root'),
        file_client: 'local',
        file_roots: { base: [srv] },
        pillar_roots: { base: [join(root, 'pillar')] },
        memo: { driver: 'memo' },
      })}\n`,
    );
    writeFileSync(
      join(srv, '_sdb', 'memo.mjs'),
      "export default { name: 'memo', get: (key) => 'memo:' + key };\n",
    );
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('sync_sdb copies salt://_sdb from file_roots and sdb.get uses the driver', async () => {
    expect(await call('saltutil.sync_sdb')).toEqual({ code: 0, out: ['sdb.memo'] });
    expect(
      existsSync(join(root, 'root', 'var', 'cache', 'salt', 'minion', 'extmods', 'sdb', 'memo.mjs')),
    ).toBe(true);
    expect(await call('sdb.get', 'sdb://memo/k1')).toEqual({ code: 0, out: 'memo:k1' });
    expect(await call('saltutil.sync_sdb')).toEqual({ code: 0, out: [] });
  });

  it("sync_all answers Salt's keys, pillar included on a masterless minion", async () => {
    writeFileSync(
      join(srv, '_sdb', 'memo.mjs'),
      "export default { name: 'memo', get: (key) => 'new:' + key };\n",
    );
    const { code, out } = await call('saltutil.sync_all');
    expect(code).toBe(0);
    // Salt 3006's order (salt-call --local saltutil.sync_all --out json)
    const salts =
      'clouds beacons modules states sdb grains renderers returners output utils log_handlers executors proxymodules engines thorium serializers matchers pillar';
    expect(Object.keys(out as object)).toEqual(salts.split(' '));
    expect((out as Record<string, unknown>).sdb).toEqual(['sdb.memo']);
    expect(await call('sdb.get', 'sdb://memo/k1')).toEqual({ code: 0, out: 'new:k1' });
  });

  it('a driver removed from file_roots is removed by the next sync', async () => {
    rmSync(join(srv, '_sdb', 'memo.mjs'));
    expect(await call('saltutil.sync_sdb')).toEqual({ code: 0, out: [] });
    const gone = await call('sdb.get', 'sdb://memo/k1');
    expect(gone.code).toBe(1);
    expect(String(gone.out)).toContain("no sdb driver is named 'memo'");
  });
});
