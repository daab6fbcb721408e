/**
 * Salt's `user:` option (master/run-as-user.ts). A master started as root with `user:` naming a
 * throwaway system user gives that user its pki, cache and socket folders and then runs as it:
 * its main process and every child. salt-key and salt still work as root beside it; a minion
 * (root, as Salt's stays by default) signs in and answers; salt-api binds, then becomes the
 * user too. An unknown user stops the start with a clear error.
 *
 * Root only (it creates a system user, removed afterwards).
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../kernel/process/ports.js';
import { Cluster, Daemon } from '../../tools/local-cluster.js';
import { childrenOf, uidOf } from '../support/proc-status.js';

const USER = `tsaltu${Math.random().toString(36).slice(2, 8)}`;
const skip =
  process.platform !== 'linux' || process.getuid?.() !== 0
    ? 'needs root on Linux'
    : spawnSync('useradd', ['--help'], { stdio: 'ignore' }).status !== 0
      ? 'needs useradd'
      : undefined;

async function until(what: string, ok: () => boolean | Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe.skipIf(!!skip)(`a master with user: set${skip ? ` (skipped: ${skip})` : ''}`, () => {
  const c = new Cluster({ master: { user: USER, auto_accept: false } });
  let uid = -1;

  beforeAll(async () => {
    const made = spawnSync(
      'useradd',
      ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', USER],
      {
        encoding: 'utf8',
      },
    );
    expect(made.status, made.stderr).toBe(0);
    uid = Number(spawnSync('id', ['-u', USER], { encoding: 'utf8' }).stdout.trim());
    // the throwaway root is root's 0700 temp folder: the user must be able to pass through it
    chmodSync(c.root, 0o755);
    await c.startMaster();
  }, 120_000);

  afterAll(async () => {
    await c.stop();
    spawnSync('userdel', [USER]);
  }, 60_000);

  it('runs its main process and every child as the user, and gives it its folders', async () => {
    const main = c.master!.proc.pid!;
    expect(uidOf(main)).toBe(uid);
    let children: number[] = [];
    await until('the children', () => {
      children = childrenOf(main);
      return children.length >= 2; // the publisher and the request server
    });
    for (const pid of children) expect(uidOf(pid), `child ${pid}`).toBe(uid);
    const salt = join(c.root, 'etc/salt');
    const cache = join(c.root, 'var/cache/salt/master');
    for (const path of [
      join(salt, 'pki/master'),
      join(salt, 'pki/master/master.pem'),
      join(salt, 'pki/master/minions_pre'),
      cache,
      join(cache, 'jobs'),
      join(cache, `.${USER}_key`),
      join(cache, '.root_key'),
      join(c.root, 'var/run/salt/master'),
    ]) {
      expect(statSync(path).uid, path).toBe(uid);
    }
  });

  it('accepts a pending key with salt-key run as root, and runs jobs from salt run as root', async () => {
    await c.startMinion('asuser1', {}, false);
    await until('the pending key', async () => (await c.saltKey(['-l', 'un'])).stdout.includes('asuser1'));
    const accepted = await c.saltKey(['-a', 'asuser1', '-y']);
    expect(accepted.code, accepted.stderr).toBe(0);
    expect((await c.saltKey(['-l', 'acc'])).stdout).toContain('asuser1');
    let ping: Record<string, unknown> = {};
    await until('the minion', async () => {
      ping = (await c.saltJson(['asuser1', 'test.ping', '-t', '5'])).data;
      return ping.asuser1 === true;
    });
    // the minion stays root, as Salt's does by default
    expect((await c.saltJson(['asuser1', 'cmd.run', 'id -u'])).data).toEqual({ asuser1: '0' });
  }, 120_000);

  it('serves salt-api from the same config: it binds, then runs as the user', async () => {
    const port = await freePort();
    const conf = join(c.confDir, 'master');
    const before = readFileSync(conf, 'utf8');
    writeFileSync(
      conf,
      `${before}rest_cherrypy: {"port": ${port}, "host": "127.0.0.1", "disable_ssl": true}\n`,
    );
    const api = new Daemon('salt-api', 'salt-api', ['-c', c.confDir, '-l', 'info']);
    try {
      await api.waitFor('salt-api started', 60_000);
      expect(uidOf(api.proc.pid!)).toBe(uid);
      const res = await fetch(`http://127.0.0.1:${port}/`);
      expect(res.status).toBe(200);
    } finally {
      expect(await api.stop()).toBe(0);
      writeFileSync(conf, before);
    }
  }, 90_000);

  it('stops cleanly as the user', async () => {
    expect(await c.master!.stop()).toBe(0);
  }, 60_000);
});

describe.skipIf(!!skip)('a master with user: naming no user', () => {
  const c = new Cluster({ master: { user: 'tsalt-no-such-user' } });
  afterAll(() => c.stop());

  it('refuses to start with a clear error', async () => {
    await c.writeMasterConfig();
    const m = new Daemon('master', 'salt-master', ['-c', c.confDir]);
    const code = await new Promise<number | null>((r) => m.proc.once('exit', r));
    expect(code).toBe(1);
    expect(m.out).toContain(
      'Salt configured to run as user "tsalt-no-such-user" but unable to switch: no such user [SALT_ERR_USER_SWITCH]',
    );
  }, 60_000);
});
