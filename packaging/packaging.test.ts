/**
 * The service files and scripts of packaging/: shell that parses (and is shellcheck-clean where
 * shellcheck is installed), units that keep what Salt users rely on.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const HERE = import.meta.dirname;
const SCRIPTS = [
  'sysvinit/salt-init.sh',
  'sysvinit/salt-minion',
  'sysvinit/salt-master',
  'sysvinit/salt-api',
  'bootstrap/bootstrap-tsalt.sh',
];
const hasShellcheck = spawnSync('shellcheck', ['--version']).status === 0;
const unit = (name: string): string => readFileSync(join(HERE, 'systemd', `${name}.service`), 'utf8');

describe('packaging/', () => {
  it('holds POSIX sh scripts that parse', () => {
    for (const s of SCRIPTS) execFileSync('sh', ['-n', join(HERE, s)]);
  });

  it.skipIf(!hasShellcheck)('holds shellcheck-clean scripts', () => {
    const r = spawnSync(
      'shellcheck',
      ['-x', '-P', join(HERE, 'sysvinit'), ...SCRIPTS.map((s) => join(HERE, s))],
      {
        encoding: 'utf8',
        cwd: HERE,
      },
    );
    expect(r.stdout).toBe('');
    expect(r.status).toBe(0);
  });

  it('gives every init script LSB headers and the shared actions', () => {
    for (const name of ['salt-minion', 'salt-master', 'salt-api']) {
      const text = readFileSync(join(HERE, 'sysvinit', name), 'utf8');
      expect(text).toMatch(new RegExp(`### BEGIN INIT INFO\\n# Provides: +${name}\\n`));
      expect(text).toContain('# Default-Start:     2 3 4 5');
      expect(text).toContain('### END INIT INFO');
    }
    const shared = readFileSync(join(HERE, 'sysvinit/salt-init.sh'), 'utf8');
    for (const action of ['start)', 'stop)', 'status)', 'restart | force-reload)'])
      expect(shared).toContain(action);
  });

  it('runs the daemons as notify units restarted on failure; the minion unsandboxed, stopped alone', () => {
    for (const name of ['salt-minion', 'salt-master', 'salt-api']) {
      expect(unit(name)).toContain('Type=notify\nNotifyAccess=all\n');
      expect(unit(name)).toContain('Restart=on-failure');
      expect(unit(name)).toContain(`ExecStart=/usr/bin/${name}\n`);
    }
    const minion = unit('salt-minion');
    expect(minion).toContain('KillMode=process');
    expect(minion).not.toMatch(/^(Protect|Private|NoNewPrivileges|Restrict)/m);
    // /etc/salt/pki is written by the master: no read-only /etc
    expect(unit('salt-master')).not.toMatch(/^ProtectSystem/m);
  });

  it("runs the master as Salt's packages do: as the salt user (the minion stays root)", () => {
    const conf = (name: string): string => readFileSync(join(HERE, 'conf', name), 'utf8');
    expect(conf('master')).toMatch(/^user: salt$/m);
    expect(conf('minion')).not.toMatch(/^user:/m);
  });
});
