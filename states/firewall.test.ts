import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import networkMod from '../modules/network.js';
import { moduleCtx, runState } from './_test-ctx.js';
import firewall from './firewall.js';

// Expectations: Salt 3006.18's state.single returns on this machine for the same checks.
const ctx = moduleCtx([networkMod]);
const check = (kw: Record<string, unknown>, test = false) => runState(firewall, 'check', kw, { ctx, test });

describe('firewall.check', () => {
  let server: Server;
  let port = 0;
  let closed = 0;
  beforeAll(async () => {
    server = createServer((s) => s.destroy());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as { port: number }).port;
    // a port nobody listens on: one just freed
    const other = createServer();
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
    closed = (other.address() as { port: number }).port;
    await new Promise((r) => other.close(r));
  });
  afterAll(() => new Promise((r) => server.close(r)));

  it('holds when the port answers and fails when it does not', async () => {
    expect(await check({ name: '127.0.0.1', port })).toEqual({
      name: '127.0.0.1',
      result: true,
      changes: {},
      comment: `Successfully connected to 127.0.0.1 (127.0.0.1) on tcp port ${port}`,
    });
    expect(await check({ name: '127.0.0.1', port: closed })).toMatchObject({
      result: false,
      comment: `Unable to connect to 127.0.0.1 (127.0.0.1) on tcp port ${closed}`,
    });
  });

  it('tries nothing under test=True, and passes a missing port and the family on', async () => {
    expect(await check({ name: '127.0.0.1', port: closed }, true)).toEqual({
      name: '127.0.0.1',
      result: true,
      changes: {},
      comment: 'The connection will be tested',
    });
    expect(await check({ name: '127.0.0.1' })).toMatchObject({
      result: false,
      comment: 'Required argument, port, is missing.',
    });
    expect(await check({ name: '127.0.0.1', port, family: 'ipv6' })).toMatchObject({
      result: false,
      comment: `Unable to resolve host 127.0.0.1 on tcp port ${port}`,
    });
  });
});
