/**
 * The Debian packages (tools/deb/) on this very machine, as a user installs them: built from
 * the checkout, tsalt-common, tsalt-master and tsalt-minion installed with `dpkg -i`, their
 * daemons started by the host's init (systemd when it is PID 1, else the sysvinit scripts),
 * the master running as the `salt` user the package created; the packaged minion's key
 * accepted with the packaged `salt-key`, jobs run through the packaged `salt`; then upgraded
 * to rebuilt packages while `test.sleep 20` runs (its return still arrives, read back with the
 * packaged `salt-run`; both daemons restarted; the master's keys, the accepted key and the
 * edited configs kept), then purged: nothing the packages made is left, and what the admin
 * added (the test's drop-in configs) is.
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
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../kernel/process/ports.js';
import { holdPackageTestsLock } from '../../modules/_pkg-test-deb.js';
import { type BuiltDeb, buildDebs } from '../../tools/deb/build-deb.js';
import { childrenOf, uidOf } from '../support/proc-status.js';
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
  for (const p of [
    '/usr/bin/salt-minion',
    '/usr/bin/salt-master',
    '/etc/salt/minion',
    '/etc/salt/master',
    '/etc/init.d/salt-minion',
    '/etc/init.d/salt-master',
  ])
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
const ID = `debtest-${Math.random().toString(36).slice(2, 8)}`;
/** The user the packages create and the master runs as (packaging/conf/master's `user:`). */
const USER = 'salt';
const PKGS = ['tsalt-common', 'tsalt-master', 'tsalt-minion'];
const MASTER_CONF = '/etc/salt/master.d/zz-deb-test.conf';
const MINION_CONF = '/etc/salt/minion.d/zz-deb-test.conf';
const PKI = '/etc/salt/pki/master';

interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs one of the packaged commands (/usr/bin/<cmd>, a link to the packaged executable). */
function packaged(cmd: string, args: string[], timeoutMs = 120_000): Ran {
  const r = spawnSync(`/usr/bin/${cmd}`, args, { encoding: 'utf8', timeout: timeoutMs });
  return { status: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}

function packagedJson(cmd: string, args: string[]): Record<string, unknown> {
  const r = packaged(cmd, ['--out', 'json', ...args]);
  try {
    return r.stdout.trim() ? (JSON.parse(r.stdout) as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

async function until(what: string, ok: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

const pidOf = (daemon: string): number | undefined => {
  try {
    return Number(readFileSync(`/var/run/${daemon}.pid`, 'utf8').trim()) || undefined;
  } catch {
    return undefined;
  }
};

function uidOfUser(name: string): number | undefined {
  const r = spawnSync('id', ['-u', name], { encoding: 'utf8' });
  return r.status === 0 ? Number(r.stdout.trim()) : undefined;
}

describe.skipIf(!!skip)(`the Debian packages${skip ? ` (skipped: ${skip})` : ''}`, () => {
  const work = mkdtempSync(join(tmpdir(), 'tsalt-deb-test-'));
  let v1: BuiltDeb[] = [];
  let v2: BuiltDeb[] = [];
  let before: string[] = [];
  let userBefore = false;
  let installed = false;

  /** Runs dpkg with the host's policy-rc.d set aside when it forbids service starts. */
  function dpkg(args: string[]): { status: number | null; out: string } {
    const denies = policyDenies();
    const allow = join(work, 'policy-rc.d');
    writeFileSync(allow, '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    // a SALT_USER in dpkg's environment must not change the user (the config names salt)
    const env = { ...process.env, SALT_USER: 'nosuchuser', DEBIAN_FRONTEND: 'noninteractive' };
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

  const pingable = (timeoutMs: number): Promise<void> =>
    until(
      `${ID} to answer test.ping`,
      () => packagedJson('salt', ['--static', ID, 'test.ping', '-t', '5'])[ID] === true,
      timeoutMs,
    );

  /** The master runs from its pidfile as the salt user, and so do its children. */
  async function masterRunsAsUser(): Promise<number> {
    const uid = uidOfUser(USER);
    expect(uid).toBeDefined();
    const pid = pidOf('salt-master');
    expect(pid).toBeDefined();
    expect(uidOf(pid!)).toBe(uid);
    let children: number[] = [];
    await until(
      'the master children',
      () => {
        children = childrenOf(pid!);
        return children.length >= 2;
      },
      60_000,
    );
    for (const child of children) expect(uidOf(child), `child ${child}`).toBe(uid);
    return pid!;
  }

  let release = () => {};
  beforeAll(async () => {
    release = await holdPackageTestsLock();
    const exe = sharedExecutable().path;
    v1 = buildDebs({ out: join(work, 'v1'), version: '0.0.1~test-1', exe, level: 1 });
    v2 = buildDebs({ out: join(work, 'v2'), version: '0.0.1~test-2', exe, level: 1 });
    before = snapshot();
    userBefore = ok('getent', ['passwd', USER]);
    // the admin's drop-ins, written before the install: private ports, the master on loopback
    const publish = await freePort();
    const ret = await freePort();
    mkdirSync('/etc/salt/master.d', { recursive: true });
    mkdirSync('/etc/salt/minion.d', { recursive: true });
    writeFileSync(MASTER_CONF, `interface: 127.0.0.1\npublish_port: ${publish}\nret_port: ${ret}\n`);
    writeFileSync(
      MINION_CONF,
      `master: 127.0.0.1\nmaster_port: ${ret}\npublish_port: ${publish}\nid: ${ID}\nacceptance_wait_time: 1\n`,
    );
  }, 1_200_000);

  afterAll(() => {
    if (installed) dpkg(['--purge', ...PKGS.slice().reverse()]);
    rmSync(MASTER_CONF, { force: true });
    rmSync(MINION_CONF, { force: true });
    spawnSync('rmdir', ['/etc/salt/master.d', '/etc/salt/minion.d']);
    if (!before.includes('/etc/salt')) spawnSync('rmdir', ['/etc/salt']);
    rmSync(work, { recursive: true, force: true });
    release();
  }, 120_000);

  it('builds one package per daemon beside the common one', () => {
    expect(v1.map((d) => d.name)).toEqual(['tsalt-common', 'tsalt-minion', 'tsalt-master', 'tsalt-api']);
    const fields = execFileSync('dpkg-deb', ['-f', debsOf(v1, ['tsalt-minion'])[0]!], { encoding: 'utf8' });
    expect(fields).toContain('Depends: tsalt-common (= 0.0.1~test-1)');
    const files = execFileSync('dpkg-deb', ['-c', debsOf(v1, ['tsalt-minion'])[0]!], { encoding: 'utf8' });
    expect(files).toMatch(/\.\/usr\/bin\/salt-minion -> \.\.\/lib\/tsalt\/tsalt/);
    expect(files).toContain('./lib/systemd/system/salt-minion.service');
    expect(files).toContain('./etc/init.d/salt-minion');
    const master = execFileSync('dpkg-deb', ['-c', debsOf(v1, ['tsalt-master'])[0]!], { encoding: 'utf8' });
    for (const cmd of ['salt-master', 'salt', 'salt-key', 'salt-run'])
      expect(master).toMatch(new RegExp(`\\./usr/bin/${cmd} -> \\.\\./lib/tsalt/tsalt`));
    expect(master).toContain('./etc/init.d/salt-master');
  });

  it('installs with dpkg -i; the master runs as salt, the minion signs in, salt-key accepts it, salt runs jobs', async () => {
    const r = dpkg(['-i', ...debsOf(v1, PKGS)]);
    installed = true;
    expect(r.status, r.out).toBe(0);
    expect(readFileSync('/etc/salt/master', 'utf8')).toMatch(/^user: salt$/m);
    await masterRunsAsUser();
    for (const daemon of ['salt-master', 'salt-minion']) expect(packagedStatus(daemon), daemon).toBe(0);
    // the minion stays root, as Salt's does
    expect(uidOf(pidOf('salt-minion')!)).toBe(0);
    await until('the pending key', () => packaged('salt-key', ['-l', 'un']).stdout.includes(ID), 90_000);
    const accepted = packaged('salt-key', ['-a', ID, '-y']);
    expect(accepted.status, accepted.stderr).toBe(0);
    expect(packagedJson('salt-key', ['-L'])).toMatchObject({ minions: [ID] });
    await pingable(90_000);
    expect(packagedJson('salt', ['--static', ID, 'cmd.run', 'echo from-deb'])).toEqual({ [ID]: 'from-deb' });
    expect(packagedJson('salt', ['--static', ID, 'cmd.run', 'id -u'])).toEqual({ [ID]: '0' });
    // Salt's layout: the master's keys and log file are the user's
    for (const path of [join(PKI, 'master.pem'), join(PKI, 'minions', ID), '/var/log/salt/master'])
      expect(statSync(path).uid, path).toBe(uidOfUser(USER));
  }, 240_000);

  it('upgrades while test.sleep 20 runs: the job returns, both daemons restart, keys and edited configs kept', async () => {
    for (const conf of ['/etc/salt/master', '/etc/salt/minion'])
      writeFileSync(conf, `${readFileSync(conf, 'utf8')}# edited by the test\n`);
    const masterKeys = [readFileSync(join(PKI, 'master.pem')), readFileSync(join(PKI, 'master.pub'))];
    const r = packaged('salt', ['--async', ID, 'test.sleep', '20']);
    const jid = /Executed command with job ID: (\d+)/.exec(r.stdout)?.[1];
    expect(jid, r.stdout + r.stderr).toBeTruthy();
    const proc = `/var/cache/salt/minion/proc/${jid}`;
    await until('the job to start', () => existsSync(proc), 60_000);
    const oldPids = [pidOf('salt-master'), pidOf('salt-minion')];
    const up = dpkg(['-i', ...debsOf(v2, PKGS)]);
    expect(up.status, up.out).toBe(0);
    for (const name of PKGS)
      expect(execFileSync('dpkg-query', ['-W', '-f', '${Version}', name], { encoding: 'utf8' })).toBe(
        '0.0.1~test-2',
      );
    const newPids = [pidOf('salt-master'), pidOf('salt-minion')];
    expect(newPids[0]).toBeDefined();
    expect(newPids[1]).toBeDefined();
    expect(newPids[0]).not.toBe(oldPids[0]);
    expect(newPids[1]).not.toBe(oldPids[1]);
    for (const conf of ['/etc/salt/master', '/etc/salt/minion'])
      expect(readFileSync(conf, 'utf8'), conf).toContain('# edited by the test');
    expect([readFileSync(join(PKI, 'master.pem')), readFileSync(join(PKI, 'master.pub'))]).toEqual(
      masterKeys,
    );
    await masterRunsAsUser();
    // the accepted key is still accepted: the minion answers with no salt-key step
    expect(packagedJson('salt-key', ['-L'])).toMatchObject({ minions: [ID] });
    await pingable(90_000);
    let found: Record<string, unknown> = {};
    await until(
      "the sleeping job's return",
      () => {
        found = packagedJson('salt-run', ['jobs.lookup_jid', jid!]);
        return ID in found;
      },
      120_000,
    );
    expect(found).toEqual({ [ID]: true });
  }, 360_000);

  it('purges cleanly: both daemons stop, the user the package made goes, the admin drop-ins stay', async () => {
    const pids = [pidOf('salt-master'), pidOf('salt-minion')];
    const r = dpkg(['--purge', ...PKGS.slice().reverse()]);
    expect(r.status, r.out).toBe(0);
    installed = false;
    for (const pid of pids) {
      await until(`pid ${pid} to exit`, () => !pid || !alive(pid), 30_000);
    }
    expect(ok('getent', ['passwd', USER])).toBe(userBefore);
    expect(existsSync(MASTER_CONF)).toBe(true);
    expect(existsSync(MINION_CONF)).toBe(true);
    // what remains is the test's own config files (and the folders it made for them)
    rmSync(MASTER_CONF);
    rmSync(MINION_CONF);
    spawnSync('rmdir', ['/etc/salt/master.d', '/etc/salt/minion.d']);
    if (!before.includes('/etc/salt')) spawnSync('rmdir', ['/etc/salt']);
    expect(snapshot()).toEqual(before);
  }, 180_000);
});

/** The exit status of the daemon's init script's `status` (0: running). */
function packagedStatus(daemon: string): number | null {
  return spawnSync(`/etc/init.d/${daemon}`, ['status'], { stdio: 'ignore' }).status;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
