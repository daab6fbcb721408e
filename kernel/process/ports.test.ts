import { createServer, type Server } from 'node:net';
import { describe, expect, it } from 'vitest';
import { assertPortFree, formatAddress, freePort } from './ports.js';

function listen(host: string, port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(port, host, () => resolve(s));
  });
}

describe('ports', () => {
  it('freePort returns a bindable port and assertPortFree accepts it', async () => {
    const port = await freePort();
    expect(port).toBeGreaterThan(0);
    await assertPortFree('127.0.0.1', port);
  });

  it('assertPortFree throws SALT_ERR_BUS_ADDRESS_IN_USE naming host:port on a busy port', async () => {
    const port = await freePort();
    const server = await listen('127.0.0.1', port);
    try {
      await expect(assertPortFree('127.0.0.1', port)).rejects.toMatchObject({
        code: 'SALT_ERR_BUS_ADDRESS_IN_USE',
        message: `cannot bind 127.0.0.1:${port}: address already in use`,
      });
    } finally {
      await new Promise((r) => server.close(r));
    }
    await assertPortFree('127.0.0.1', port);
  });

  it('reports other bind failures as SALT_ERR_PROCESS_PORT', async () => {
    // TEST-NET-1 address, never configured on a test host
    await expect(assertPortFree('192.0.2.1', 4505)).rejects.toMatchObject({
      code: 'SALT_ERR_PROCESS_PORT',
      message: expect.stringContaining('192.0.2.1:4505'),
    });
  });

  it('formats IPv6 addresses with brackets', () => {
    expect(formatAddress('::1', 4506)).toBe('[::1]:4506');
    expect(formatAddress('0.0.0.0', 4505)).toBe('0.0.0.0:4505');
  });
});
