import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { minionEngineEventLoad } from '../kernel/units/context.js';
import { minionRestartTag, startEngines } from './engines.js';
import { encodeLoad } from './master-link.js';

const silent = { info() {}, warn() {}, error() {}, debug() {} };
const dir = mkdtempSync(join(tmpdir(), 'tsalt-engines-'));
// A stand-in engine child: ready, one master request, then exit 3 once it has the reply.
const child = join(dir, 'fake-engine.mjs');
writeFileSync(
  child,
  `const unit = JSON.parse(process.argv[2]);
process.on('message', (m) => {
  if (m.type === 'master-reply') process.exit(m.reply === unit.options.expect ? 3 : 4);
});
process.send({ type: 'ready' }, () => {
  process.send({ type: 'master-request', rid: 1, load: unit.options.load });
});
`,
);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('startEngines', () => {
  it('is undefined without engines', () => {
    const o = { id: 'm1', config: {}, boot: { configDir: dir, overrides: {} }, send: async () => null };
    expect(startEngines({ ...o, engines: [], log: silent })).toBeUndefined();
  });

  it('relays an engine child master request, restarts it with backoff, and tells the master', async () => {
    const sent: Record<string, unknown>[] = [];
    const running = startEngines({
      id: 'm1',
      engines: [
        { fake: { load: encodeLoad({ cmd: '_minion_event', tag: 'a/b' }), expect: encodeLoad('ok') } },
      ],
      config: { id: 'm1' },
      boot: { configDir: dir, overrides: {} },
      send: async (load) => {
        sent.push(load);
        return 'ok';
      },
      log: silent,
      modulePath: child,
      backoff: { initialMs: 20, maxMs: 80, resetAfterMs: 60_000 },
    });
    expect(running).toBeDefined();
    await running?.started;
    for (let t = 0; t < 5000 && (running?.pm.get('engine-fake')?.restarts ?? 0) < 2; t += 20)
      await new Promise((r) => setTimeout(r, 20));
    await running?.stop();
    expect(sent[0]).toEqual({ cmd: '_minion_event', tag: 'a/b' });
    const restarts = sent.filter((l) => Array.isArray(l.events));
    expect(restarts.length).toBeGreaterThanOrEqual(2);
    expect(restarts[0]).toEqual(
      minionEngineEventLoad('m1', minionRestartTag('m1', 'engine-fake'), {
        name: 'engine-fake',
        restarts: 1,
        exit_code: 3,
        signal: null,
        delay_ms: 20,
      }),
    );
    const delays = restarts.map((l) => (l.events as Array<{ data: { delay_ms: number } }>)[0]?.data.delay_ms);
    expect(delays.slice(0, 2)).toEqual([20, 40]);
  });
});

describe('minionEngineEventLoad', () => {
  it("is Salt's events form, with the minion id added to the data", () => {
    expect(minionEngineEventLoad('m1', 'x/y', { line: 'l' })).toEqual({
      cmd: '_minion_event',
      id: 'm1',
      pretag: null,
      events: [{ tag: 'x/y', data: { line: 'l', id: 'm1' } }],
    });
    expect(minionEngineEventLoad('m1', 'x/y', { id: 'own' }).events).toEqual([
      { tag: 'x/y', data: { id: 'own' } },
    ]);
  });
});
