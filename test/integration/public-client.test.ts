/**
 * `tsalt/client`, the public client, used as a script on the master's host uses it: a script in
 * a folder where the tsalt package is installed imports it by its package name, against a real
 * master and minion: a job's returns, a runner's and a wheel function's (and a failed runner's
 * error), and an event fired and heard.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster, REPO } from '../../tools/local-cluster.js';

const SCRIPT = `
import { SaltClient } from 'tsalt/client';

const salt = await SaltClient.open(process.argv[2]);
const out = {};
out.echo = await salt.cmd('pc1', 'test.echo', ['hi']);
out.ping = await salt.cmd(['pc1'], 'test.ping', [], { tgtType: 'list' });
out.runner = await salt.runner('test.arg', ['a'], { k: 1 });
out.wheel = await salt.wheel('key.list_all');
out.failed = await salt.runner('nosuch.fn').then(() => 'no error', (err) => err.message);
out.overlapping = await Promise.all([salt.runner('test.arg', ['p']), salt.runner('test.arg', ['q'])]);
const events = await salt.events(['pc/test/']);
salt.fire('pc/test/hello', { n: 1 });
for await (const ev of events) {
  out.event = { tag: ev.tag, n: ev.data.n };
  break;
}
await salt.close();
console.log(JSON.stringify(out));
`;

describe('tsalt/client against a real master', () => {
  const c = new Cluster();
  const dir = join(c.root, 'script');

  beforeAll(async () => {
    await c.startMaster();
    await c.startMinion('pc1');
    mkdirSync(join(dir, 'node_modules'), { recursive: true });
    symlinkSync(REPO, join(dir, 'node_modules', 'tsalt'), 'dir');
    writeFileSync(join(dir, 'script.mjs'), SCRIPT);
  }, 60_000);
  afterAll(() => c.stop());

  it('a script imports tsalt/client and runs a job, a runner, a wheel function and events', () => {
    const run = spawnSync(process.execPath, [join(dir, 'script.mjs'), c.confDir], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.stderr).toBe('');
    const out = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(out.echo).toEqual({ pc1: 'hi' });
    expect(out.ping).toEqual({ pc1: true });
    expect(out.runner).toEqual({ args: ['a'], kwargs: { k: 1 } });
    expect(out.wheel).toMatchObject({ minions: ['pc1'] });
    expect(out.failed).toMatch(/nosuch/);
    // two runners at once: each call hears its own return
    expect(out.overlapping).toEqual([
      { args: ['p'], kwargs: {} },
      { args: ['q'], kwargs: {} },
    ]);
    expect(out.event).toEqual({ tag: 'pc/test/hello', n: 1 });
  });
});
