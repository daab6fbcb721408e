/**
 * `salt-api` whose `rest_cherrypy` port another program holds (say, a master that serves the
 * API itself, as `npm start`'s would with a `rest_cherrypy` block): it exits 1 naming the
 * address, with the stable code the master's own sockets use, not Node's bare `EADDRINUSE`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from '../../tools/local-cluster.js';

describe('salt-api on a port already in use', () => {
  const c = new Cluster();
  let holder: Server | undefined;
  beforeAll(() => c.startMaster(), 60_000);
  afterAll(async () => {
    await new Promise((r) => (holder ? holder.close(r) : r(undefined)));
    await c.stop();
  });

  it('says which address is taken, with SALT_ERR_BUS_ADDRESS_IN_USE', async () => {
    const server = createServer();
    holder = server;
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const conf = join(c.confDir, 'master');
    writeFileSync(
      conf,
      `${readFileSync(conf, 'utf8')}rest_cherrypy: {"port": ${port}, "host": "127.0.0.1", "disable_ssl": true}\n`,
    );
    const r = await c.run('salt-api', ['-l', 'error']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `salt-api: error: cannot bind 127.0.0.1:${port}: address already in use [SALT_ERR_BUS_ADDRESS_IN_USE]`,
    );
  }, 120_000);
});
