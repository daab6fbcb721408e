/**
 * What the throwaway database servers of the modules' tests share (_mysql-test-server.ts,
 * _ldap-test-server.ts): finding a system program, and a free loopback port.
 */
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

/** The path of `name` in the sbin folders or PATH; throws `<name> <missing>` when absent. */
export function systemBin(name: string, missing: string): string {
  for (const dir of ['/usr/sbin', '/usr/bin', ...(process.env.PATH ?? '').split(':')])
    if (dir && existsSync(join(dir, name))) return join(dir, name);
  throw new Error(`${name} ${missing}`);
}

/** A TCP port free on 127.0.0.1 now. */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const a = srv.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      srv.close(() => resolve(port));
    });
  });
}
