/**
 * The Debian packages (tools/deb/) on this very machine: built from the checkout, installed
 * with `dpkg -i`, their minion started by the host's init (systemd when it is PID 1, else the
 * sysvinit script) against a master from the checkout, a job run through it; then upgraded to
 * a rebuilt package while `test.sleep 20` runs (its return still arrives, the minion is
 * restarted, the edited config kept), then purged: nothing of it is left behind.
 *
 * Root only (it installs system packages), and only on a host where no Salt is installed. A
 * container's policy-rc.d that forbids service starts is set aside for dpkg alone, in a private
 * mount namespace, so that the package's own maintainer scripts start and restart the minion.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltDeb, buildDebs } from '../../tools/deb/build-deb.js';
import { Cluster } from '../../tools/local-cluster.js';
import { sharedExecutable } from '../support/sea-executable.js';

/** Everything the packages or their daemons may create. */
const WATCHED = [
  '/etc/salt',
  '/etc/init.d',
  '/etc/systemd/system',
  '/lib/systemd/system',
  '/usr/lib/tsalt',
  '/usr/bin',
  '/var/cache/salt',
  '/var/cache/tsalt',
  '/var/lib/tsalt',
  '/var/log/salt',
  '/var/run/salt',
  '/var/run',
  ...[0, 1, 2, 3, 4, 5, 6, 'S'].map((l) => `/etc/rc${l}.d`),
];

const ok = (cmd: string, args: string[]): boolean => spawnSync(cmd, args, { stdio: 'ignore' }).status === 0;

function whySkip(): string | undefined {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return 'needs root on Linux';
  if (!ok('dpkg-deb', ['--version'])) return 'needs dpkg';
  if (ok('dpkg-query', ['-W', 'tsalt-common'])) return 'tsalt-common is installed on this host already';
  for (const p of ['/usr/bin/salt-minion', '/etc/salt/minion', '/etc/init.d/salt-minion'])
    if (existsSync(p)) return `${p} exists: a Salt is installed on this host`;
  if (policyDenies() && !ok('unshare', ['-m', 'true']))
    return 'policy-rc.d forbids service starts here and no private mount namespace can set it aside';
  return undefined;
}

const POLICY = '/usr/sbin/policy-rc.d';

/** Whether the host's policy-rc.d forbids starting services (Debian's container images). */
function policyDenies(): boolean {
  return existsSync(POLICY) && spawnSync(POLICY, ['salt-minion', 'start']).status === 101;
}

/** What exists among the watched paths (salt/tsalt entries only where the folder is shared). */
function snapshot(): string[] {
  const out: string[] = [];
  const walk = (p: string, all: boolean): void => {
    let entries: string[];
    try {
      entries = readdirSync(p);
    } catch {
      return;
    }
    for (const e of entries) {
      const full = join(p, e);
      // other tests' throwaway units (`tsalt-t-*`) come and go while this one runs
      if ((!all && !/salt/.test(e)) || e.startsWith('tsalt-t-')) continue;
      out.push(full);
      walk(full, true);
    }
  };
  for (const p of WATCHED) {
    const own = /salt/.test(p);
    if (own && existsSync(p)) out.push(p);
    walk(p, own);
  }
  return [...new Set(out)].sort();
}

const skip = whySkip();
const SUFFIX = Math.random().toString(36).slice(2, 8);
const ID = `debtest-${SUFFIX}`;
const USER = `tsaltdeb${SUFFIX}`;

describe.skipIf(!!skip)(`the Debian packages${skip ? ` (skipped: ${skip})` : ''}`, () => {
  const work = mkdtempSync(join(tmpdir(), 'tsalt-deb-test-'));
  const c = new Cluster();
  const testConf = '/etc/salt/minion.d/zz-deb-test.conf';
  let v1: BuiltDeb[] = [];
  let v2: BuiltDeb[] = [];
  let before: string[] = [];
  let installed = false;

  /** Runs dpkg with the host's policy-rc.d set aside when it forbids service starts. */
  function dpkg(args: string[]): { status: number | null; out: string } {
    const denies = policyDenies();
    const allow = join(work, 'policy-rc.d');
    writeFileSync(allow, '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    const env = { ...process.env, SALT_USER: USER, DEBIAN_FRONTEND: 'noninteractive' };
    for (let i = 0; ; i++) {
      const r = denies
        ? spawnSync(
            'unshare',
            [
              '-m',
              '--propagation',
              'private',
              'sh',
              '-c',
              `mount --bind ${allow} ${POLICY} && exec dpkg "$@"`,
              'sh',
              ...args,
            ],
            { env, encoding: 'utf8' },
          )
        : spawnSync('dpkg', args, { env, encoding: 'utf8' });
      const out = `${r.stdout}${r.stderr}`;
      // another dpkg or apt holds the lock: wait for it
      if (r.status !== 0 && /lock/i.test(out) && i < 60) {
        execFileSync('sleep', ['2']);
        continue;
      }
      return { status: r.status, out };
    }
  }

  const debsOf = (set: BuiltDeb[], names: string[]): string[] =>
    names.map((n) => set.find((d) => d.name === n)!.path);

  async function pingable(timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const { data } = await c.saltJson([ID, 'test.ping', '-t', '5']).catch(() => ({ data: {} }));
      if ((data as Record<string, unknown>)[ID] === true) return true;
    }
    return false;
  }

  const minionPid = (): number | undefined => {
    try {
      return Number(readFileSync('/var/run/salt-minion.pid', 'utf8').trim()) || undefined;
    } catch {
      return undefined;
    }
  };

  beforeAll(async () => {
    const exe = sharedExecutable().path;
    v1 = buildDebs({ out: join(work, 'v1'), version: '0.0.1~test-1', exe, level: 1 });
    v2 = buildDebs({ out: join(work, 'v2'), version: '0.0.1~test-2', exe, level: 1 });
    await c.startMaster();
    before = snapshot();
    mkdirSync('/etc/salt/minion.d', { recursive: true });
    writeFileSync(
      testConf,
      `master: 127.0.0.1\nmaster_port: ${c.retPort}\nid: ${ID}\nacceptance_wait_time: 1\n`,
    );
  }, 600_000);

  afterAll(async () => {
    if (installed) dpkg(['--purge', 'tsalt-minion', 'tsalt-common']);
    rmSync(testConf, { force: true });
    spawnSync('rmdir', ['/etc/salt/minion.d', '/etc/salt']);
    spawnSync('userdel', [USER]);
    await c.stop();
    rmSync(work, { recursive: true, force: true });
  }, 120_000);

  it('builds one package per daemon beside the common one', () => {
    expect(v1.map((d) => d.name)).toEqual(['tsalt-common', 'tsalt-minion', 'tsalt-master', 'tsalt-api']);
    const fields = execFileSync('dpkg-deb', ['-f', debsOf(v1, ['tsalt-minion'])[0]!], { encoding: 'utf8' });
    expect(fields).toContain('Depends: tsalt-common (= 0.0.1~test-1)');
    const files = execFileSync('dpkg-deb', ['-c', debsOf(v1, ['tsalt-minion'])[0]!], { encoding: 'utf8' });
    expect(files).toMatch(/\.\/usr\/bin\/salt-minion -> \.\.\/lib\/tsalt\/tsalt/);
    expect(files).toContain('./lib/systemd/system/salt-minion.service');
    expect(files).toContain('./etc/init.d/salt-minion');
  });

  it('installs with dpkg -i; its minion starts, signs in and runs jobs', async () => {
    const r = dpkg(['-i', ...debsOf(v1, ['tsalt-common', 'tsalt-minion'])]);
    installed = true;
    expect(r.status, r.out).toBe(0);
    expect(getentUser()).toBe(true);
    expect(await pingable(90_000)).toBe(true);
    expect((await c.saltJson([ID, 'cmd.run', 'echo from-deb'])).data).toEqual({ [ID]: 'from-deb' });
  }, 180_000);

  it('upgrades while test.sleep 20 runs: the job returns, the minion is restarted, the edited config kept', async () => {
    writeFileSync('/etc/salt/minion', `${readFileSync('/etc/salt/minion', 'utf8')}# edited by the test\n`);
    const r = await c.salt(['--async', ID, 'test.sleep', '20']);
    const jid = /Executed command with job ID: (\d+)/.exec(r.stdout)?.[1];
    expect(jid, r.stdout + r.stderr).toBeTruthy();
    const proc = `/var/cache/salt/minion/proc/${jid}`;
    for (let i = 0; i < 600 && !existsSync(proc); i++) await new Promise((res) => setTimeout(res, 50));
    expect(existsSync(proc)).toBe(true);
    const oldPid = minionPid();
    const up = dpkg(['-i', ...debsOf(v2, ['tsalt-common', 'tsalt-minion'])]);
    expect(up.status, up.out).toBe(0);
    expect(execFileSync('dpkg-query', ['-W', '-f', '${Version}', 'tsalt-minion'], { encoding: 'utf8' })).toBe(
      '0.0.1~test-2',
    );
    const newPid = minionPid();
    expect(newPid).toBeDefined();
    expect(newPid).not.toBe(oldPid);
    expect(readFileSync('/etc/salt/minion', 'utf8')).toContain('# edited by the test');
    expect(await pingable(90_000)).toBe(true);
    const stored = await c.jobReturns(jid!, (s) => ID in s, 120_000);
    expect(stored[ID]?.return).toBe(true);
  }, 300_000);

  it('purges cleanly: the minion stops and nothing of the packages is left', async () => {
    const pid = minionPid();
    const r = dpkg(['--purge', 'tsalt-minion', 'tsalt-common']);
    expect(r.status, r.out).toBe(0);
    installed = false;
    for (let i = 0; i < 200 && pid && alive(pid); i++) await new Promise((res) => setTimeout(res, 100));
    expect(pid && alive(pid)).toBeFalsy();
    expect(getentUser()).toBe(false);
    // what remains is the test's own config file (and the folders it made for it)
    rmSync(testConf);
    spawnSync('rmdir', ['/etc/salt/minion.d']);
    if (!before.includes('/etc/salt')) spawnSync('rmdir', ['/etc/salt']);
    expect(snapshot()).toEqual(before);
  }, 180_000);
});

function getentUser(): boolean {
  return ok('getent', ['passwd', USER]);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
