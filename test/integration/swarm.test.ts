import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from '../../tools/local-cluster.js';
import { countWith, parseSpread } from '../../tools/swarm/grains-spread.js';
import { defaultKeysDir, ensureKeys } from '../../tools/swarm/key-cache.js';
import { type SwarmHandle, startSwarm } from '../../tools/swarm/swarm-runner.js';

const COUNT = 50;
const spread = parseSpread(['role=web,db,db']);

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('the minion swarm against a real master', () => {
  const c = new Cluster({ quiet: true });
  let swarm: SwarmHandle | undefined;

  beforeAll(async () => {
    // 2048-bit keys are made once into the user cache; a cold cache costs ~1 min here
    await ensureKeys(defaultKeysDir(), COUNT);
    await c.startMaster();
    swarm = await startSwarm({
      count: COUNT,
      procs: 2,
      masterHost: '127.0.0.1',
      retPort: c.retPort,
      keysDir: defaultKeysDir(),
      idPrefix: 'sw',
      spread,
    });
    swarm.go();
    await swarm.waitFor((s) => s.authenticated === COUNT && s.subscribed === COUNT, 60_000);
    // the grains reports reach the master's data cache (grain targets are matched there)
    const minions = join(c.root, 'var/cache/salt/master/minions');
    for (let i = 0; i < 200; i++) {
      let n = 0;
      for (let m = 0; m < COUNT; m++)
        if (existsSync(join(minions, `sw${String(m).padStart(2, '0')}`, 'data.p'))) n++;
      if (n === COUNT) break;
      await new Promise((r) => setTimeout(r, 100));
    }
  }, 180_000);

  afterAll(async () => {
    await swarm?.stop();
    await c.stop();
  });

  it('hosts every minion in two processes, all signed in', () => {
    expect(swarm?.procs).toBe(2);
    expect(swarm?.stats()).toMatchObject({ minions: COUNT, authenticated: COUNT, errors: 0 });
  });

  it("salt '*' test.ping gets a return from every swarm minion", async () => {
    const r = await c.saltJson(['*', 'test.ping']);
    expect(Object.keys(r.data)).toHaveLength(COUNT);
    expect(Object.values(r.data).every((v) => v === true)).toBe(true);
    expect(r.code).toBe(0);
  });

  it('a grain target reaches exactly the minions with that grain', async () => {
    const r = await c.saltJson(['-G', 'role:web', 'test.echo', 'hi']);
    expect(Object.keys(r.data)).toHaveLength(countWith(spread, COUNT, 'role', 'web'));
    expect(Object.keys(r.data).sort()[0]).toBe('sw00');
    expect(new Set(Object.values(r.data))).toEqual(new Set(['hi']));
    const item = await c.saltJson(['sw01', 'grains.item', 'role', 'id']);
    expect(item.data).toEqual({ sw01: { role: 'db', id: 'sw01' } });
  });

  it('stops every worker process: none is left behind', async () => {
    const pids = swarm?.pids ?? [];
    expect(pids.length).toBe(2);
    expect(pids.every(alive)).toBe(true);
    const final = await swarm?.stop();
    expect(final).toMatchObject({ authenticated: COUNT, errors: 0 });
    expect(pids.some(alive)).toBe(false);
  });
});
