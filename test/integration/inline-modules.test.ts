import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from '../../tools/local-cluster.js';

/**
 * `inline` as a capability any module declares, honoured for extension modules only when the
 * operator trusts them (`inline_modules`): a function that returns `process.pid` tells where
 * it ran, the minion's main process or a job process.
 */
describe('inline_modules: extension modules the operator trusts run in the main process', () => {
  const master: Record<string, unknown> = {};
  const c = new Cluster({ master });
  const moduleDir = join(c.root, 'ext-modules');
  const returnerDir = join(c.root, 'ext-returners');
  const salt = join(c.root, 'srv', 'salt');
  const writeSynced = (version: number) =>
    writeFileSync(
      join(salt, '_modules', 'synced.mjs'),
      `export default { name: 'synced', functions: { where: { inline: true, run: () => ({ pid: process.pid, version: ${version} }) } } };\n`,
    );

  beforeAll(async () => {
    mkdirSync(moduleDir, { recursive: true });
    writeFileSync(
      join(moduleDir, 'probe.mjs'),
      "export default { name: 'probe', functions: { pid: { inline: true, run: () => process.pid } } };\n",
    );
    mkdirSync(returnerDir, { recursive: true });
    writeFileSync(join(returnerDir, 'sink.mjs'), "export default { name: 'sink', async returner() {} };\n");
    mkdirSync(join(salt, '_modules'), { recursive: true });
    writeSynced(1);
    master.file_roots = { base: [salt] };
    await c.startMaster();
    const common = { module_dirs: [moduleDir], returner_dirs: [returnerDir] };
    await Promise.all([
      c.startMinion('trusting', { ...common, inline_modules: ['probe', 'synced'] }),
      c.startMinion('strict', common),
      c.startMinion('off', { ...common, inline_modules: ['probe'], inline_functions: false }),
    ]);
  }, 60_000);
  afterAll(() => c.stop());

  const pidOf = (id: string): number => c.minions.get(id)!.proc.pid!;

  it('runs a trusted module in the main process; untrusted, or with inline_functions False, in a job process', async () => {
    const { data } = await c.saltJson(['-L', 'trusting,strict,off', 'probe.pid']);
    expect(data.trusting).toBe(pidOf('trusting'));
    expect(typeof data.strict).toBe('number');
    expect(data.strict).not.toBe(pidOf('strict'));
    expect(typeof data.off).toBe('number');
    expect(data.off).not.toBe(pidOf('off'));
  });

  it('a job with returners goes to a job process, trusted or not', async () => {
    const { data } = await c.saltJson(['trusting', 'probe.pid', '--return', 'sink']);
    expect(typeof data.trusting).toBe('number');
    expect(data.trusting).not.toBe(pidOf('trusting'));
  });

  it('a trusted module synced again runs its new code, in a job process', async () => {
    expect((await c.saltJson(['trusting', 'saltutil.sync_modules'])).data).toEqual({
      trusting: ['modules.synced'],
    });
    expect((await c.saltJson(['trusting', 'synced.where'])).data.trusting).toEqual({
      pid: pidOf('trusting'),
      version: 1,
    });
    writeSynced(2);
    expect((await c.saltJson(['trusting', 'saltutil.sync_modules'])).data).toEqual({
      trusting: ['modules.synced'],
    });
    const after = (await c.saltJson(['trusting', 'synced.where'])).data.trusting as Record<string, unknown>;
    expect(after.version).toBe(2);
    expect(after.pid).not.toBe(pidOf('trusting'));
  });
});
