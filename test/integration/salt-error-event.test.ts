import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SaltEvent } from '../../kernel/jobs/types.js';
import { Cluster } from '../../tools/local-cluster.js';
import { collectMasterEvents, type MasterEvents } from '../support/master-events.js';

// Salt 3006.18 (a stock salt-master and salt-minion, `salt py1 test.exception 'Oh noes'`) puts
// this on the master bus, and its master logs `Received minion error from [py1]: ...`:
// {"id": "py1", "cmd": "_minion_event", "pretag": null, "tag": "_salt_error", "ts": ...,
//  "data": {"message": "The minion function caused an exception",
//           "args": ["The minion function caused an exception"], "_stamp": ...}, "_stamp": ...}
describe('a job whose function raises fires _salt_error to the master (Salt _thread_return)', () => {
  const c = new Cluster();
  let events: MasterEvents;
  let seen: SaltEvent[] = [];

  beforeAll(async () => {
    await c.startMaster();
    await c.startMinion('m1');
    events = await collectMasterEvents(c, ['_salt_error']);
    seen = events.seen;
  });
  afterAll(async () => {
    events.close();
    await c.stop();
  });

  /** Waits (up to a generous 30 s: the machine may be loaded) for `count` events. */
  async function errorEvents(count: number): Promise<SaltEvent[]> {
    for (let i = 0; i < 300 && seen.length < count; i++) await new Promise((r) => setTimeout(r, 100));
    return seen;
  }

  it('test.exception: one _salt_error event with the packed MinionError', async () => {
    const r = await c.saltJson(['m1', 'test.exception', 'Oh noes']);
    expect(String(r.data.m1)).toMatch(/^The minion function caused an exception: Traceback/);
    const [ev] = await errorEvents(1);
    expect(ev?.tag).toBe('_salt_error');
    const message = 'The minion function caused an exception';
    expect(ev?.data).toMatchObject({
      id: 'm1',
      cmd: '_minion_event',
      pretag: null,
      tag: '_salt_error',
      data: { message, args: [message] },
    });
    const data = (ev?.data as { data?: Record<string, unknown> } | undefined)?.data ?? {};
    expect(Object.keys(data)).toEqual(['message', 'args', '_stamp']);
    for (let i = 0; i < 100 && !c.master!.out.includes('Received minion error'); i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(c.master!.out).toContain(`Received minion error from [m1]: ${message}`);
  });

  it('errors Salt handles itself (bad arguments, a multi-function job) fire none', async () => {
    seen.length = 0;
    // Salt's TypeError and CommandExecutionError branches, and _thread_multi_return, do not fire
    const bad = await c.saltJson(['m1', 'test.echo']);
    expect(String(bad.data.m1)).toMatch(/^Passed invalid arguments to test.echo/);
    const multi = await c.saltJson(['m1', 'test.ping,test.exception', ',x']);
    expect(multi.data.m1).toMatchObject({ 'test.ping': true });
    // then one that does fire: it arrives after the others would have
    await c.saltJson(['m1', 'test.exception', 'last']);
    await errorEvents(1);
    await new Promise((r) => setTimeout(r, 1000));
    expect(seen.length).toBe(1);
  });
});
