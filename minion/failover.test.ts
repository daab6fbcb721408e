import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../kernel/log.js';
import { firstAlive, reachable, watchMasters } from './failover.js';

const servers: Server[] = [];

function listen(host: string, port = 0): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer((s) => s.destroy());
    servers.push(srv);
    srv.once('error', reject);
    srv.listen(port, host, () => resolve((srv.address() as { port: number }).port));
  });
}

async function closeAll(): Promise<void> {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
}

async function until(check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

afterEach(closeAll);

describe('failover between masters', () => {
  it('reachable() tells a listening port from a closed one', async () => {
    const port = await listen('127.0.0.2');
    expect(await reachable('127.0.0.2', port, 2000)).toBe(true);
    expect(await reachable('127.0.0.3', port, 2000)).toBe(false);
  });

  it('firstAlive() skips the masters that do not answer, round the list', async () => {
    const port = await listen('127.0.0.3');
    const opts = { signal: new AbortController().signal, log: silentLogger(), probeMs: 2000 };
    expect(await firstAlive(['127.0.0.2', '127.0.0.3'], port, 0, opts)).toBe(1);
    expect(await firstAlive(['127.0.0.3', '127.0.0.2'], port, 1, opts)).toBe(0);
  });

  it('moves to the next master when its own stops answering, and fails back to the first', async () => {
    const port = await listen('127.0.0.2');
    await listen('127.0.0.3', port);
    let current = 0;
    const switches: string[] = [];
    const watch = watchMasters({
      masters: ['127.0.0.2', '127.0.0.3'],
      port,
      aliveIntervalS: 1,
      failback: true,
      failbackIntervalS: 1,
      log: silentLogger(),
      current: () => current,
      switchTo: async (i, why) => {
        current = i;
        switches.push(`${why}:${i}`);
      },
    });
    try {
      // the first master goes away
      await new Promise((r) => servers[0]!.close(r));
      await until(() => current === 1);
      expect(switches).toEqual(['failover:1']);
      // and comes back on the same port
      await listen('127.0.0.2', port);
      await until(() => current === 0);
      expect(switches).toEqual(['failover:1', 'failback:0']);
    } finally {
      watch.stop();
    }
  });
});
