import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PACKAGES, SALT_USER } from './layout.js';
import { maintainerScripts } from './maintainer-scripts.js';

const HASH = 'a'.repeat(64);
const hasShellcheck = spawnSync('shellcheck', ['--version']).status === 0;

describe('the Debian maintainer scripts', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tsalt-maint-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const all = PACKAGES.flatMap((pkg) =>
    Object.entries(maintainerScripts(pkg, HASH)).map(([name, text]) => ({ pkg: pkg.name, name, text })),
  );

  it('are POSIX sh that parses, each ending with exit 0', () => {
    expect(all.length).toBe(3 + 3 * 3);
    for (const s of all) {
      const file = join(dir, `${s.pkg}.${s.name}`);
      writeFileSync(file, s.text);
      expect(s.text.startsWith('#!/bin/sh\nset -e\n'), file).toBe(true);
      expect(s.text.trimEnd().endsWith('exit 0'), file).toBe(true);
      execFileSync('sh', ['-n', file]);
    }
  });

  it.skipIf(!hasShellcheck)('are shellcheck-clean', () => {
    const files = all.map((s) => join(dir, `${s.pkg}.${s.name}`));
    for (const s of all) writeFileSync(join(dir, `${s.pkg}.${s.name}`), s.text);
    const r = spawnSync('shellcheck', ['-s', 'sh', ...files], { encoding: 'utf8' });
    expect(r.stdout).toBe('');
    expect(r.status).toBe(0);
  });

  it('restart a service after an upgrade and stop it only on removal, never before an upgrade', () => {
    const minion = maintainerScripts(PACKAGES.find((p) => p.name === 'tsalt-minion')!, HASH);
    expect(minion.postinst).toContain('invoke-rc.d salt-minion restart');
    expect(minion.postinst).toContain('deb-systemd-invoke restart salt-minion.service');
    expect(minion.prerm).toMatch(/remove \| deconfigure\)/);
    expect(minion.prerm).not.toMatch(/upgrade\)/);
    expect(minion.postrm).toContain('rm -rf /etc/salt/pki/minion /var/cache/salt/minion');
  });

  it('create the user the default master config names, whatever the environment says', () => {
    const conf = readFileSync(join(import.meta.dirname, '../../packaging/conf/master'), 'utf8');
    expect(/^user: (\S+)$/m.exec(conf)?.[1]).toBe(SALT_USER);
    const preinst = maintainerScripts(PACKAGES[0]!, HASH).preinst!;
    // the variables are set, not defaulted from dpkg's environment (SALT_USER=x dpkg -i ...)
    expect(preinst).toContain(`SALT_USER=${SALT_USER}\nSALT_GROUP=${SALT_USER}\n`);
    expect(preinst).not.toMatch(/\$\{SALT_(USER|GROUP):-/);
    const r = spawnSync(
      'sh',
      ['-c', `${preinst.replace(/case "\$1"[\s\S]*$/, '')}echo "$SALT_USER:$SALT_GROUP"`],
      {
        encoding: 'utf8',
        env: { ...process.env, SALT_USER: 'other', SALT_GROUP: 'other' },
      },
    );
    expect(r.stdout.trim()).toBe(`${SALT_USER}:${SALT_USER}`);
  });

  it("keep the running build's code and remove only what no process runs", () => {
    const common = maintainerScripts(PACKAGES[0]!, HASH);
    expect(common.postinst).toContain(`/var/cache/tsalt/sea/${HASH}`);
    expect(common.postinst).toContain('/proc/[0-9]*/cmdline');
  });
});
