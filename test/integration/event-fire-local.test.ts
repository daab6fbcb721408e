import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventListener, masterEventAddresses } from '../../kernel/bus/event-bus.js';
import type { SaltEvent } from '../../kernel/jobs/types.js';
import { Cluster } from '../../tools/local-cluster.js';

// event.fire goes to the minion's own bus (Salt's get_event('minion')), not to the master;
// a minion engine listening there sees it and may pass it on
describe('event.fire on the minion bus', () => {
  const c = new Cluster();
  let events: EventListener;
  const seen: SaltEvent[] = [];
  const out = () => c.minions.get('m1')!.out;

  beforeAll(async () => {
    await c.startMaster();
    events = new EventListener(masterEventAddresses(join(c.root, 'var/run/salt/master')), ['acme/']);
    await events.ready();
    void (async () => {
      for await (const ev of events) seen.push(ev);
    })();
    const dir = join(c.root, 'minion-engines');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'relay.mjs'),
      `export default {
  name: 'relay',
  async start(ctx) {
    const stream = ctx.listen(['acme/local/']);
    console.log('relay listening');
    for await (const ev of stream) await ctx.fire('acme/relayed', { tag: ev.tag, data: ev.data });
  },
};
`,
    );
    await c.startMinion('m1', { engines_dirs: [dir], engines: ['relay'] });
  });
  afterAll(async () => {
    events.close();
    await c.stop();
  });

  async function until<T>(get: () => T | undefined, ms = 20_000): Promise<T | undefined> {
    for (let t = 0; t < ms; t += 50) {
      const v = get();
      if (v !== undefined) return v;
      await new Promise((r) => setTimeout(r, 50));
    }
    return undefined;
  }

  it('fires on the minion bus, where an engine hears it; the master bus never gets the tag itself', async () => {
    expect(await until(() => (out().includes('relay listening') ? true : undefined))).toBe(true);
    // the engine's subscription may take a moment after it logs: fire until it relays
    let relayed: SaltEvent | undefined;
    for (let i = 0; i < 10 && !relayed; i++) {
      const r = await c.saltJson(['m1', 'event.fire', `{"n": ${i}, "who": "job"}`, 'acme/local/hello']);
      expect(r.data).toEqual({ m1: true });
      relayed = await until(() => seen.find((e) => e.tag === 'acme/relayed'), 3000);
    }
    expect(relayed?.data).toMatchObject({ id: 'm1', tag: 'acme/local/hello', data: { who: 'job' } });
    expect(seen.some((e) => e.tag === 'acme/local/hello')).toBe(false);
  });

  it('answers False for data that is not a map, as Salt does', async () => {
    const r = await c.saltJson(['m1', 'event.fire', 'just text', 'acme/local/x']);
    expect(r.data).toEqual({ m1: false });
  });

  it('event.fire_master still goes to the master', async () => {
    const r = await c.saltJson(['m1', 'event.fire_master', '{"k": "v"}', 'acme/up']);
    expect(r.data).toEqual({ m1: true });
    const ev = await until(() => seen.find((e) => e.tag === 'acme/up'));
    expect(ev?.data).toMatchObject({ id: 'm1', data: { k: 'v' } });
  });
});
