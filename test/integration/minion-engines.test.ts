import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventListener, masterEventAddresses } from '../../kernel/bus/event-bus.js';
import type { SaltEvent } from '../../kernel/jobs/types.js';
import { Cluster } from '../../tools/local-cluster.js';

describe('minion-side engines', () => {
  const c = new Cluster();
  const logFile = join(c.root, 'minion-app.log');
  let events: EventListener;
  const seen: SaltEvent[] = [];
  const out = () => c.minions.get('m1')!.out;

  beforeAll(async () => {
    await c.startMaster();
    events = new EventListener(masterEventAddresses(join(c.root, 'var/run/salt/master')), [
      'tsalt/',
      'acme/',
      'salt/job/',
    ]);
    await events.ready();
    void (async () => {
      for await (const ev of events) seen.push(ev);
    })();
    writeFileSync(logFile, 'a line from before\n');
    const dir = join(c.root, 'minion-engines');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'crashy.mjs'),
      `export default { name: 'crashy', start() { throw new Error('crashy cannot start'); } };\n`,
    );
    writeFileSync(
      join(dir, 'forger.mjs'),
      `export default {
  name: 'forger',
  async start(ctx) {
    await ctx.fire('salt/job/20990101000000000000/ret/m1', { forged: true });
    await ctx.fire('acme/minion-engine/hello', { from: ctx.name, minion: ctx.opts.id, greeting: ctx.options.greeting });
  },
};
`,
    );
    await c.startMinion('m1', {
      engines_dirs: [dir],
      engines: [
        { tail: { path: logFile, interval_ms: 50 } },
        'crashy',
        { forger: { greeting: 'hi' } },
        'no_such_engine',
      ],
    });
  });
  afterAll(async () => {
    events.close();
    await c.stop();
  });

  async function waitFor(pred: (e: SaltEvent) => boolean, ms = 15_000): Promise<SaltEvent | undefined> {
    for (let t = 0; t < ms; t += 25) {
      const ev = seen.find(pred);
      if (ev) return ev;
      await new Promise((r) => setTimeout(r, 25));
    }
    return undefined;
  }

  async function waitOut(text: string, ms = 15_000): Promise<boolean> {
    for (let t = 0; t < ms; t += 25) {
      if (out().includes(text)) return true;
      await new Promise((r) => setTimeout(r, 25));
    }
    return false;
  }

  it('the built-in tail engine on a minion fires each new line to the master bus', async () => {
    expect(await waitOut('engine-tail started')).toBe(true);
    await new Promise((r) => setTimeout(r, 200));
    appendFileSync(logFile, 'disk full on the minion\n');
    const ev = await waitFor((e) => e.tag === 'tsalt/engines/tail/minion-app.log');
    expect(ev?.data).toMatchObject({ id: 'm1', path: logFile, line: 'disk full on the minion' });
    expect(seen.filter((e) => e.tag === 'tsalt/engines/tail/minion-app.log')).toHaveLength(1);
  });

  it('an engine gets the minion config and its options; it cannot forge a master tag', async () => {
    const ev = await waitFor((e) => e.tag === 'acme/minion-engine/hello');
    expect(ev?.data).toMatchObject({ from: 'forger', minion: 'm1', greeting: 'hi', id: 'm1' });
    const dropped = await waitFor(
      (e) => e.tag === 'tsalt/bus/dropped' && e.data.reason === 'forbidden-tag' && e.data.minion === 'm1',
    );
    expect(dropped?.data.tag).toBe('salt/job/20990101000000000000/ret/m1');
    expect(seen.some((e) => e.tag === 'salt/job/20990101000000000000/ret/m1')).toBe(false);
  });

  it('an engine that throws at start is restarted with backoff, logged, with an event', async () => {
    const first = await waitFor((e) => e.tag === 'tsalt/minion/m1/process/engine-crashy/restart');
    expect(first?.data).toMatchObject({ id: 'm1', name: 'engine-crashy', exit_code: 1 });
    const second = await waitFor(
      (e) => e.tag === 'tsalt/minion/m1/process/engine-crashy/restart' && Number(e.data.restarts) >= 3,
    );
    expect(Number(second?.data.delay_ms)).toBeGreaterThan(Number(first?.data.delay_ms));
    expect(out()).toContain('engine-crashy failed: crashy cannot start');
    expect(out()).toContain("'no_such_engine' is not available");
    expect((await c.saltJson(['m1', 'test.ping'])).data).toEqual({ m1: true });
  });

  it('the engines stop with the minion', async () => {
    await c.minions.get('m1')!.stop();
    expect(out()).toContain('engine-tail stopped');
    expect(out()).not.toContain('SIGKILL');
  });
});
