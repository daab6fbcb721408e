/**
 * A pillar's whole floats (`1.0`) stay floats on a minion with a master, as Salt 3006.18's do
 * (Python floats through msgpack): `pillar.get` prints `1.0`, Jinja renders `1.0`, and a
 * schedule in the pillar with `seconds: 1.0` runs. They reached job processes as integers (`1`)
 * because the minion unpacked the master's private `_pillar` answer without keeping floats.
 * Salt's masterless `salt-call --local` answers the same three (checked side by side on 29 Nov).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventListener, masterEventAddresses } from '../../kernel/bus/event-bus.js';
import { Cluster } from '../../tools/local-cluster.js';

describe('pillar floats on a minion with a master', () => {
  const master: Record<string, unknown> = {};
  const c = new Cluster({ master, quiet: true });
  beforeAll(async () => {
    const root = join(c.root, 'srv', 'pillar');
    mkdirSync(root, { recursive: true });
    writeFileSync(join(root, 'top.sls'), "base:\n  '*':\n    - f\n");
    writeFileSync(
      join(root, 'f.sls'),
      'x: 1.0\ny: {a: 2.0}\nschedule:\n  tick:\n    function: event.fire_master\n    args: [{n: 1}, tsalt/test/floats]\n    seconds: 1.0\n',
    );
    master.pillar_roots = { base: [root] };
    await c.startMaster();
    await c.startMinion('f1');
  }, 60_000);
  afterAll(() => c.stop());

  it('pillar.get and a Jinja template see 1.0, not 1', async () => {
    expect((await c.salt(['f1', 'pillar.get', 'x', '--out', 'json'])).stdout).toMatch(/"f1": 1\.0\b/);
    const r = await c.salt([
      'f1',
      'cmd.run',
      'echo {{ pillar.x }} {{ pillar.y }}',
      'template=jinja',
      '--out',
      'json',
    ]);
    expect(r.stdout).toContain('"f1": "1.0 {a: 2.0}"');
  }, 60_000);

  it("the pillar's schedule with seconds: 1.0 is listed and runs", async () => {
    const listed = (await c.salt(['f1', 'schedule.list', 'return_yaml=False', '--out', 'json'])).stdout;
    expect(listed).toMatch(/"seconds": 1\.0\b/);
    const events = new EventListener(masterEventAddresses(join(c.root, 'var/run/salt/master')), [
      'tsalt/test/floats',
    ]);
    await events.ready();
    try {
      const seen: number[] = [];
      for await (const _ev of events) {
        seen.push(Date.now());
        if (seen.length === 3) break;
      }
      // every second, not at every evaluation and not never
      expect(seen[2]! - seen[0]!).toBeGreaterThan(1200);
    } finally {
      events.close();
    }
  }, 60_000);
});
