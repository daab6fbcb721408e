import { connect, createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ConnectionGuard, type ConnectionLimits } from './connection-guard.js';

/** A real TCP server on 127.0.0.1 whose accepted sockets go through a guard (server side kept by peer port). */
async function guarded(limits: ConnectionLimits) {
  const guard = new ConnectionGuard(limits);
  const accepted = new Map<number, Socket>();
  const server: Server = createServer((s) => {
    if (guard.admit(s)) accepted.set(s.remotePort ?? 0, s);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  const clients: Socket[] = [];
  /** Connects from `from`; resolves once the server has judged the connection. */
  const open = async (from: string) => {
    const before = guard.counts.open + guard.counts.refused + guard.counts.evicted;
    const c = connect({ host: '127.0.0.1', port, localAddress: from });
    c.on('error', () => undefined);
    clients.push(c);
    await new Promise((r) => c.once('connect', r));
    for (
      let i = 0;
      i < 200 && guard.counts.open + guard.counts.refused + guard.counts.evicted === before;
      i++
    )
      await new Promise((r) => setTimeout(r, 5));
    return accepted.get(c.localPort ?? 0);
  };
  const close = () => {
    for (const c of clients) c.destroy();
    return new Promise<void>((r) => server.close(() => r()));
  };
  return { guard, open, close };
}

describe('ConnectionGuard (real sockets)', () => {
  let done: () => Promise<void> = async () => undefined;
  afterEach(() => done());

  it('caps per address, puts the overflow on probation, evicts the oldest probation one when full', async () => {
    const g = await guarded({ maxConnections: 5, reserve: 2, perAddress: 2 });
    done = g.close;
    await g.open('127.0.4.1');
    const second = await g.open('127.0.4.1');
    expect(await g.open('127.0.4.1')).toBeUndefined(); // third from one address: refused
    await g.open('127.0.4.2');
    expect(g.guard.counts).toMatchObject({ open: 3, unauthenticated: 3, probation: 0, refused: 1 });
    const p1 = await g.open('127.0.4.3');
    const p2 = await g.open('127.0.4.4');
    expect(g.guard.onProbation(p1!)).toBe(true);
    expect(g.guard.counts).toMatchObject({ open: 5, probation: 2 });
    // full: the oldest on probation goes for the newcomer
    const p3 = await g.open('127.0.4.5');
    expect(p1!.destroyed).toBe(true);
    expect(g.guard.counts).toMatchObject({ open: 5, probation: 2, evicted: 1 });
    // a token moves a connection out of the unauthenticated counts, making room on its address
    g.guard.authenticated(second!);
    g.guard.authenticated(p2!);
    expect(g.guard.counts).toMatchObject({ unauthenticated: 2, probation: 1 });
    expect(g.guard.onProbation(p3!)).toBe(true);
    second!.destroy();
    for (let i = 0; i < 200 && g.guard.counts.open !== 4; i++) await new Promise((r) => setTimeout(r, 5));
    expect(g.guard.counts.open).toBe(4);
  });
});
