// pkg.show, normalize_name, parse_arch and autoremove's listing over this machine's real apt
// and dpkg through a masterless salt-call (Salt 3006.18 answers the same here)
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localCaller } from '../support/local-call.js';

describe('pkg.show and friends', () => {
  const root = mkdtempSync(join(tmpdir(), 'tsalt-pkg-show-'));
  const call = localCaller(root, 'p1');
  const arch = execFileSync('dpkg', ['--print-architecture']).toString().trim();

  beforeAll(() => mkdirSync(join(root, 'srv')));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("shows apt-cache's fields by package and version, filtered", async () => {
    const bash = execFileSync('dpkg-query', ['-W', `-f=\${Version}`, 'bash']).toString();
    const r = (await call('pkg.show', 'bash', 'filter=version,architecture')).local as Record<string, object>;
    expect(r.bash).toMatchObject({ [bash]: { Architecture: arch } });
    for (const fields of Object.values(r.bash ?? {})) expect(Object.keys(fields)).toEqual(['Architecture']);
    const none = await call('pkg.show', 'tsalt-no-such-package');
    expect(none).toMatchObject({ code: 1, local: {} });
    expect((await call('pkg.show', 'bash', 'bogus=1')).output).toContain(
      'The following keyword arguments are not valid: bogus=1',
    );
  });

  it('splits and normalizes architectures; lists what autoremove would remove', async () => {
    expect((await call('pkg.normalize_name', `bash:${arch}`)).local).toBe('bash');
    expect((await call('pkg.normalize_name', 'bash:all')).local).toBe('bash');
    expect((await call('pkg.normalize_name', 'bash:s390x')).local).toBe('bash:s390x');
    expect((await call('pkg.parse_arch', 'a:b:c')).local).toEqual({ name: 'a:b', arch: 'c' });
    expect((await call('pkg.parse_arch', 'bash')).local).toEqual({ name: 'bash', arch: null });
    const listed = (await call('pkg.autoremove', 'list_only=True')).local;
    expect(Array.isArray(listed)).toBe(true);
    expect([...(listed as string[])].sort()).toEqual(listed);
  });
});
