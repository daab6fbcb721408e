import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  PAM_DEFAULTS,
  type PamOptions,
  pamAuthenticate,
  pamOptions,
  pamPassed,
  pamtesterArgs,
  passwordProblem,
} from './eauth-pam.js';

const dir = mkdtempSync(join(tmpdir(), 'tsalt-pam-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function recorder() {
  const lines: string[] = [];
  return {
    lines,
    log: { warn: (_o: object, m: string) => lines.push(m), error: (_o: object, m: string) => lines.push(m) },
  };
}

/** A stand-in pamtester: records its argv, reads the password line, behaves per `body`. */
function fake(name: string, body: string): string {
  const path = join(dir, name);
  writeFileSync(
    path,
    `#!/bin/sh\nprintf '%s\\n' "$@" > "${path}.argv"\nenv > "${path}.env"\nIFS= read -r pw\n${body}\n`,
    { mode: 0o755 },
  );
  return path;
}
const OK_LINES = "echo 'pamtester: successfully authenticated'; echo 'pamtester: account management done.'";
const checker = fake(
  'pamtester-ok',
  `if [ "$pw" = "right pw" ]; then ${OK_LINES}; exit 0; fi\necho 'pamtester: Authentication failure' >&2; exit 1`,
);
const opts = (over: Partial<PamOptions> = {}): PamOptions => ({ ...PAM_DEFAULTS, binary: checker, ...over });

describe('eauth pam through pamtester', () => {
  it('passes the right password on stdin, never on the command line or in the environment', async () => {
    const r = recorder();
    expect(await pamAuthenticate('alice', 'right pw', opts(), r.log)).toBe(true);
    expect(readFileSync(`${checker}.argv`, 'utf8')).toBe('login\nalice\nauthenticate\nacct_mgmt\n');
    expect(readFileSync(`${checker}.env`, 'utf8')).not.toContain('right pw');
    expect(await pamAuthenticate('alice', 'wrong', opts(), r.log)).toBe(false);
    expect(r.lines.join('\n')).toContain('Pam auth failed for alice: pamtester exit 1');
    expect(await pamAuthenticate('alice', 'right pw', opts({ service: 'salt-api' }), r.log)).toBe(true);
    expect(readFileSync(`${checker}.argv`, 'utf8').split('\n')[0]).toBe('salt-api');
  });

  it('refuses names that read as options or split items, and multi-line passwords, before running', async () => {
    expect(pamtesterArgs('login', '-Ievil=1')).toEqual({ refused: 'the user name must not start with "-"' });
    expect(pamtesterArgs('login', 'a b')).toHaveProperty('refused');
    expect(pamtesterArgs('login', 'a\nb')).toHaveProperty('refused');
    expect(pamtesterArgs('-v', 'alice')).toHaveProperty('refused');
    expect(pamtesterArgs('login', '')).toHaveProperty('refused');
    expect(pamtesterArgs('login', 'x'.repeat(300))).toHaveProperty('refused');
    expect(passwordProblem('right pw\nmore')).toBeDefined();
    expect(passwordProblem('a\0b')).toBeDefined();
    expect(passwordProblem('ok pw')).toBeUndefined();
    const r = recorder();
    const argvFile = `${checker}.argv`;
    rmSync(argvFile, { force: true });
    expect(await pamAuthenticate('-Ix=y', 'right pw', opts(), r.log)).toBe(false);
    expect(await pamAuthenticate('alice', 'right pw\nright pw', opts(), r.log)).toBe(false);
    expect(existsSync(argvFile)).toBe(false);
  });

  it('denies on a timeout (the child is killed), a signal, a missing binary, or exit 0 without the success lines', async () => {
    const r = recorder();
    const hang = fake('pamtester-hang', `${OK_LINES}\nsleep 30`);
    const t0 = Date.now();
    expect(await pamAuthenticate('alice', 'right pw', opts({ binary: hang, timeoutMs: 300 }), r.log)).toBe(
      false,
    );
    expect(Date.now() - t0).toBeLessThan(5_000);
    expect(r.lines.join('\n')).toContain('no answer within 300 ms (killed)');
    const killed = fake('pamtester-signal', `${OK_LINES}\nkill -9 $$`);
    expect(await pamAuthenticate('alice', 'right pw', opts({ binary: killed }), r.log)).toBe(false);
    const silent = fake('pamtester-silent', 'exit 0');
    expect(await pamAuthenticate('alice', 'right pw', opts({ binary: silent }), r.log)).toBe(false);
    const half = fake('pamtester-half', "echo 'pamtester: successfully authenticated'; exit 0");
    expect(await pamAuthenticate('alice', 'right pw', opts({ binary: half }), r.log)).toBe(false);
    expect(await pamAuthenticate('alice', 'right pw', opts({ binary: join(dir, 'missing') }), r.log)).toBe(
      false,
    );
    expect(r.lines.join('\n')).toContain('Debian package pamtester');
    const notExec = join(dir, 'not-exec');
    writeFileSync(notExec, '#!/bin/sh\nexit 0\n', { mode: 0o644 });
    expect(await pamAuthenticate('alice', 'right pw', opts({ binary: notExec }), r.log)).toBe(false);
  });

  it('pamPassed needs exit 0, no signal, no timeout and both lines', () => {
    const good = {
      code: 0,
      signal: null,
      timedOut: false,
      stdout: 'pamtester: successfully authenticated\npamtester: account management done.\n',
    };
    expect(pamPassed(good)).toBe(true);
    expect(pamPassed({ ...good, code: 1 })).toBe(false);
    expect(pamPassed({ ...good, code: null, signal: 'SIGKILL' })).toBe(false);
    expect(pamPassed({ ...good, timedOut: true })).toBe(false);
    expect(pamPassed({ ...good, error: 'spawn EACCES' })).toBe(false);
  });

  it('bounds concurrent checks: a full queue denies', async () => {
    const slow = fake('pamtester-slow', `sleep 0.3; ${OK_LINES}`);
    const r = recorder();
    const o = opts({ binary: slow, maxConcurrent: 2, maxQueued: 2 });
    const res = await Promise.all(Array.from({ length: 6 }, () => pamAuthenticate('alice', 'x', o, r.log)));
    expect(res.filter(Boolean)).toHaveLength(4);
    expect(r.lines.filter((l) => l.includes('too many logins'))).toHaveLength(2);
  });

  it('reads auth.pam.service / auth.pam.timeout / auth.pam.pamtester from the master config', () => {
    expect(pamOptions(undefined)).toEqual(PAM_DEFAULTS);
    expect(
      pamOptions({ 'auth.pam.service': 'salt', 'auth.pam.timeout': 3, 'auth.pam.pamtester': '/x' }),
    ).toEqual({
      ...PAM_DEFAULTS,
      service: 'salt',
      timeoutMs: 3000,
      binary: '/x',
    });
    expect(pamOptions({ 'auth.pam.timeout': 'soon' }).timeoutMs).toBe(PAM_DEFAULTS.timeoutMs);
  });
});

/**
 * Against the real PAM stack (`login` service, pam_unix): only as root with pamtester and
 * useradd present, with a throw-away user (no home, no login shell) removed afterwards.
 */
const realPam =
  process.getuid?.() === 0 && existsSync('/usr/bin/pamtester') && existsSync('/usr/sbin/useradd');
describe.skipIf(!realPam)('eauth pam against the system PAM stack', () => {
  const user = `tsaltpam${process.pid}`;
  afterAll(() => {
    try {
      execFileSync('/usr/sbin/userdel', [user], { stdio: 'ignore' });
    } catch {
      // not created
    }
  });
  it('the right password passes, a wrong one and an unknown user do not', async () => {
    execFileSync('/usr/sbin/useradd', ['-M', '-s', '/usr/sbin/nologin', user]);
    execFileSync('/usr/sbin/chpasswd', [], { input: `${user}:pam pw 1\n` });
    const r = recorder();
    const o = { ...PAM_DEFAULTS };
    expect(await pamAuthenticate(user, 'pam pw 1', o, r.log)).toBe(true);
    expect(await pamAuthenticate(user, 'pam pw 2', o, r.log)).toBe(false);
    expect(await pamAuthenticate(`${user}x`, 'pam pw 1', o, r.log)).toBe(false);
  }, 30_000);
});
