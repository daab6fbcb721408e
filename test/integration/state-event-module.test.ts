// state.event run by a real masterless salt-call, watching a real master's event bus
// (node=master, sock_dir): it prints `<tag>\t<json>` for the matching events and stops after count
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventFirer, masterEventAddresses } from '../../kernel/bus/event-bus.js';
import { Cluster } from '../../tools/local-cluster.js';
import { localCaller } from '../support/local-call.js';

describe('state.event (execution module)', () => {
  const c = new Cluster();
  const root = mkdtempSync(join(tmpdir(), 'tsalt-stevent-'));
  const call = localCaller(root, 'ev1');
  let sock: string;

  beforeAll(async () => {
    await c.startMaster();
    sock = join(c.root, 'var/run/salt/master');
  }, 120_000);
  afterAll(async () => {
    await c.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it('prints the matching events, Python-JSON encoded, and stops after count', async () => {
    const watching = call('state.event', 'myco/*', 'count=2', 'node=master', `sock_dir=${sock}`);
    const firer = new EventFirer(masterEventAddresses(sock));
    let done = false;
    void watching.finally(() => {
      done = true;
    });
    // fire until the watcher, which subscribes at its own pace, has seen two
    for (let i = 0; !done && i < 200; i++) {
      firer.fire('other/tag', { skip: true });
      firer.fire('myco/hello', { b: 1, a: 'é' });
      await new Promise((r) => setTimeout(r, 100));
    }
    await firer.close();
    const r = await watching;
    expect(r.code).toBe(0);
    const lines = r.output.split('\n').filter((l) => l.includes('\t'));
    expect(lines).toHaveLength(2);
    for (const l of lines) expect(l.startsWith('myco/hello\t{"b": 1, "a": "\\u00e9"')).toBe(true);
    expect(r.local).toBeUndefined(); // the events come first on stdout, then `local: null`
    expect(r.output).toContain('"local": null');
  }, 60_000);
});
