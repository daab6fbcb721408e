import { execFile } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../kernel/process/ports.js';
import { Cluster } from '../../tools/local-cluster.js';

const PEPPER = '/usr/bin/salt-pepper';

function pepper(
  rc: string,
  cache: string,
  args: string[],
): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(PEPPER, ['-c', rc, '-x', cache, ...args], { timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, out: stdout, err: stderr });
    });
  });
}

describe('salt-pepper (Debian package, a client nobody here wrote) against tsalt netapi', () => {
  let c: Cluster;
  let rc = '';
  let cache = '';
  beforeAll(async () => {
    if (!existsSync(PEPPER))
      throw new Error(
        `${PEPPER} is missing: install Debian's salt-pepper package (apt-get install salt-pepper)`,
      );
    const port = await freePort();
    c = new Cluster({
      master: {
        rest_cherrypy: { port, host: '127.0.0.1', disable_ssl: true },
        netapi_enable_clients: ['local', 'local_async', 'runner', 'wheel'],
        external_auth: { file: { '^filename': '__USERS__', saltdev: ['.*', '@runner', '@wheel', '@jobs'] } },
      },
    });
    const users = join(c.root, 'users.txt');
    writeFileSync(users, 'saltdev:saltdev\n');
    await c.writeMasterConfig();
    const conf = join(c.confDir, 'master');
    writeFileSync(conf, readFileSync(conf, 'utf8').replace('__USERS__', users));
    c.writeMasterConfig = async () => undefined;
    await c.startMaster();
    await c.startMinion('m0');
    await c.startMinion('m1');
    rc = join(c.root, 'pepperrc');
    cache = join(c.root, 'pepper-cache');
    writeFileSync(
      rc,
      `[main]\nSALTAPI_URL=http://127.0.0.1:${port}\nSALTAPI_USER=saltdev\nSALTAPI_PASS=saltdev\nSALTAPI_EAUTH=file\n`,
    );
    for (let i = 0; i < 100; i++) {
      try {
        await fetch(`http://127.0.0.1:${port}/`);
        break;
      } catch {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  }, 90_000);
  afterAll(() => c?.stop());

  it("salt-pepper '*' test.ping", async () => {
    const r = await pepper(rc, cache, ['*', 'test.ping']);
    expect(r.err).toBe('');
    expect(JSON.parse(r.out)).toEqual({ return: [{ m0: true, m1: true }] });
  });

  it('salt-pepper --client runner manage.up', async () => {
    const r = await pepper(rc, cache, ['--client', 'runner', 'manage.up']);
    expect(JSON.parse(r.out)).toEqual({ return: [['m0', 'm1']] });
  });

  it('salt-pepper --client wheel key.list_all', async () => {
    const r = await pepper(rc, cache, ['--client', 'wheel', 'key.list_all']);
    const body = JSON.parse(r.out) as { return: [{ data: { return: { minions: string[] } } }] };
    expect(body.return[0].data.return.minions).toEqual(['m0', 'm1']);
  });

  it('salt-pepper --client local_async, then runner jobs.lookup_jid', async () => {
    const r = await pepper(rc, cache, ['--client', 'local_async', '*', 'test.ping']);
    const jid = (JSON.parse(r.out) as { return: [{ jid: string }] }).return[0].jid;
    expect(jid).toMatch(/^\d{20}$/);
    await new Promise((res) => setTimeout(res, 1500));
    const l = await pepper(rc, cache, ['--client', 'runner', 'jobs.lookup_jid', `jid=${jid}`]);
    expect(JSON.parse(l.out)).toEqual({ return: [{ m0: true, m1: true }] });
  });
});
