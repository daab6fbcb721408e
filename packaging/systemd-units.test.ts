/**
 * The systemd units of packaging/systemd/ checked by systemd itself, without systemd as PID 1:
 * `systemd-analyze verify` (every key known and valid, dependencies that resolve, an ExecStart
 * that is executable) and `systemd-analyze security --offline` (the master's and the API's
 * hardening takes effect; the minion is unsandboxed on purpose). They run against a throwaway
 * root holding the host's own units, the package's units and stand-ins for the commands.
 */
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const UNITS = ['salt-minion', 'salt-master', 'salt-api'] as const;
const HOST_UNITS = '/lib/systemd/system';
const skip =
  spawnSync('systemd-analyze', ['--version'], { stdio: 'ignore' }).status !== 0
    ? 'needs systemd-analyze'
    : !existsSync(join(HOST_UNITS, 'multi-user.target'))
      ? `needs the host's units in ${HOST_UNITS}`
      : undefined;

describe.skipIf(!!skip)(`the systemd units${skip ? ` (skipped: ${skip})` : ''}`, () => {
  const root = mkdtempSync(join(tmpdir(), 'tsalt-units-'));
  const unitDir = join(root, 'lib/systemd/system');
  const unit = (name: string): string => join(unitDir, `${name}.service`);
  const analyze = (args: string[]) =>
    spawnSync('systemd-analyze', [...args, `--root=${root}`], { encoding: 'utf8', timeout: 60_000 });

  beforeAll(() => {
    // targets and the other units ours name (network-online.target, ...), from the host
    cpSync(realpathSync(HOST_UNITS), unitDir, { recursive: true, verbatimSymlinks: true });
    mkdirSync(join(root, 'usr/bin'), { recursive: true });
    for (const name of UNITS) {
      copyFileSync(join(import.meta.dirname, 'systemd', `${name}.service`), unit(name));
      writeFileSync(join(root, 'usr/bin', name), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    }
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('pass systemd-analyze verify with no warning', () => {
    for (const name of UNITS) {
      const r = analyze(['verify', '--man=no', unit(name)]);
      expect(`${r.stdout}${r.stderr}`, name).toBe('');
      expect(r.status, name).toBe(0);
    }
  });

  it('would be caught by it: a misspelt key, a command that is missing', () => {
    const broken = join(unitDir, 'tsalt-broken.service');
    writeFileSync(
      broken,
      readFileSync(unit('salt-master'), 'utf8').replace('[Install]', 'ProtectKernelModule=yes\n\n[Install]'),
    );
    expect(analyze(['verify', '--man=no', broken]).stderr).toMatch(
      /Unknown key.*ProtectKernelModule.*Service/,
    );
    rmSync(join(root, 'usr/bin/salt-api'));
    try {
      const r = analyze(['verify', '--man=no', unit('salt-api')]);
      expect(r.stderr).toContain('Command /usr/bin/salt-api is not executable');
      expect(r.status).not.toBe(0);
    } finally {
      writeFileSync(join(root, 'usr/bin/salt-api'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
      rmSync(broken);
    }
  });

  it('harden the master and the API, and leave the minion (which manages the whole host) alone', () => {
    const exposure = (name: string): number => {
      const r = analyze(['security', '--offline=yes', unit(name)]);
      const level = /Overall exposure level for [\w-]+\.service: ([\d.]+)/.exec(r.stdout)?.[1];
      expect(level, `${r.stdout}${r.stderr}`).toBeDefined();
      return Number(level);
    };
    const minion = exposure('salt-minion');
    expect(exposure('salt-master')).toBeLessThan(minion);
    expect(exposure('salt-api')).toBeLessThan(minion);
  });
});
