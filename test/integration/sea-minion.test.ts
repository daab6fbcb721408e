/**
 * The self-contained executable (tools/sea/build-sea.ts): built from this checkout, it runs
 * with no Node, npm or checkout around it. It answers `--version`, runs `salt-call --local`
 * under Salt's command names, and, started as a minion, signs in to a master from the checkout
 * and runs jobs (its job processes are the executable again).
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from '../../tools/local-cluster.js';
import { sharedExecutable } from '../support/sea-executable.js';

const run = promisify(execFile);

describe('the self-contained minion executable', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tsalt-sea-test-'));
  const exe = join(dir, 'bin', 'tsalt-minion');
  // where the executable unpacks its code: a clean folder, and no Node on the PATH
  const env = { PATH: '/usr/sbin:/usr/bin:/sbin:/bin', TSALT_SEA_DIR: join(dir, 'unpacked'), HOME: dir };
  const c = new Cluster();

  beforeAll(async () => {
    // this build's executable (built once for every test that runs one), copied to where it is installed
    const built = sharedExecutable();
    expect(built.bytes).toBeGreaterThan(built.assetBytes);
    mkdirSync(join(dir, 'bin'));
    copyFileSync(built.path, exe);
    await c.writeMasterConfig();
    await c.startMaster();
  }, 300_000);
  afterAll(async () => {
    await c.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers --version as salt-minion does, once unpacked and again from its cache', async () => {
    for (let i = 0; i < 2; i++) {
      const { stdout } = await run(exe, ['--version'], { env, timeout: 120_000 });
      expect(stdout).toMatch(/^salt-minion 3006\.\d+ \(Sulfur; tsalt \d+\.\d+\.\d+\)\n$/);
    }
  }, 240_000);

  it("runs salt-call --local under Salt's command name, or named as its first argument", async () => {
    const conf = join(dir, 'local');
    mkdirSync(conf, { recursive: true });
    writeFileSync(
      join(conf, 'minion'),
      `id: sea-local\nfile_client: local\nroot_dir: ${join(dir, 'root')}\n`,
    );
    const link = join(dir, 'bin', 'salt-call');
    symlinkSync(exe, link);
    const byName = await run(link, ['--local', '-c', conf, 'test.ping', '--out', 'json'], { env });
    expect(JSON.parse(byName.stdout)).toEqual({ local: true });
    const copy = join(dir, 'elsewhere');
    copyFileSync(exe, copy);
    const byArg = await run(copy, ['salt-call', '--local', '-c', conf, 'grains.get', 'id', '--out', 'json'], {
      env,
    });
    expect(JSON.parse(byArg.stdout)).toEqual({ local: 'sea-local' });
  }, 120_000);

  it('signs in to a master as a minion and runs jobs in its own job processes', async () => {
    // the daemon inherits this process's environment: it unpacks into the test's folder too
    process.env.TSALT_SEA_DIR = env.TSALT_SEA_DIR;
    await c.startMinion('sea1', {}, true, exe);
    let ping: Record<string, unknown> = {};
    for (let i = 0; i < 30 && ping.sea1 !== true; i++) {
      ping = (await c.saltJson(['sea1', 'test.ping', '-t', '10'])).data;
    }
    expect(ping).toEqual({ sea1: true });
    expect((await c.saltJson(['sea1', 'cmd.run', 'echo from-sea'])).data).toEqual({ sea1: 'from-sea' });
    const grains = (await c.saltJson(['sea1', 'grains.items'])).data.sea1 as Record<string, unknown>;
    expect(grains).toMatchObject({ id: 'sea1', kernel: 'Linux' });
  }, 120_000);
});
