/**
 * `salt-api -d --pid-file FILE`, as the sysvinit script starts it: the command returns at once,
 * the background copy serves the API and writes its pidfile, and a SIGTERM stops it and removes
 * the pidfile.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../kernel/process/ports.js';
import { Cluster } from '../../tools/local-cluster.js';

const until = async (
  what: string,
  ok: () => boolean | Promise<boolean>,
  timeoutMs = 60_000,
): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('salt-api -d', () => {
  const root = mkdtempSync(join(tmpdir(), 'tsalt-api-d-'));
  const c = new Cluster();
  let pid = 0;
  // salt-api serves against a running master (which, without a rest_cherrypy block, runs no API itself)
  beforeAll(() => c.startMaster(), 60_000);
  afterAll(async () => {
    if (pid && alive(pid)) process.kill(pid, 'SIGKILL');
    await c.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it('runs in the background with a pidfile, serves, and stops on SIGTERM removing the pidfile', async () => {
    const port = await freePort();
    const conf = join(c.confDir, 'master');
    writeFileSync(
      conf,
      `${readFileSync(conf, 'utf8')}rest_cherrypy: {"port": ${port}, "host": "127.0.0.1", "disable_ssl": true}\n`,
    );
    const pidfile = join(root, 'salt-api.pid');
    const r = await c.run('salt-api', ['-d', '--pid-file', pidfile]);
    expect(r.code, r.stderr).toBe(0);
    await until('the pidfile', () => existsSync(pidfile));
    pid = Number(readFileSync(pidfile, 'utf8').trim());
    expect(alive(pid)).toBe(true);
    await until('the API', async () => {
      const res = await fetch(`http://127.0.0.1:${port}/`).catch(() => undefined);
      return res !== undefined;
    });
    process.kill(pid, 'SIGTERM');
    await until('the exit', () => !alive(pid));
    expect(existsSync(pidfile)).toBe(false);
  }, 120_000);
});
