/**
 * The `django` module through salt-call --local, on a throwaway project that
 * `django-admin startproject` makes, with Debian's python3-django. Expectations: Salt 3006.18 on
 * this machine (26 of 26 calls identical in /tmp/tools22/cmp.mjs django).
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { which } from '../../modules/_which.js';
import { localCaller } from '../support/local-call.js';

describe.skipIf(!which('django-admin'))('django module', () => {
  const root = mkdtempSync(join(tmpdir(), 'tsalt-django-'));
  const site = join(root, 'site');
  const call = localCaller(root, 'django1');
  const pp = `pythonpath=${site}`;

  beforeAll(() => {
    mkdirSync(join(site, 'fixtures'), { recursive: true });
    mkdirSync(join(site, 'assets'));
    execFileSync('django-admin', ['startproject', 'djp', '.'], { cwd: site });
    appendFileSync(
      join(site, 'djp', 'settings.py'),
      `STATIC_ROOT = '${site}/static_root'\nSTATICFILES_DIRS = ['${site}/assets']\nFIXTURE_DIRS = ['${site}/fixtures']\n`,
    );
    writeFileSync(join(site, 'assets', 'site.css'), 'body{}\n');
    const group = (pk: number, name: string) =>
      `[{"model": "auth.group", "pk": ${pk}, "fields": {"name": "${name}"}}]`;
    writeFileSync(join(site, 'fixtures', 'groups.json'), group(1, 'editors'));
    writeFileSync(join(site, 'fixtures', 'more.json'), group(2, 'writers'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('migrates, creates a superuser once, loads fixtures, collects static files', {
    timeout: 300_000,
  }, async () => {
    const migrated = await call('django.migrate', 'djp.settings', pp);
    expect(migrated.code).toBe(0);
    expect(migrated.local).toMatch(
      /^Operations to perform:\n {2}Apply all migrations: admin, auth, contenttypes, sessions\n/,
    );
    expect(migrated.local).toContain('Applying auth.0001_initial... OK');
    expect((await call('django.migrate', 'djp.settings', 'auth', pp)).local).toBe(
      'Operations to perform:\n  Apply all migrations: auth\nRunning migrations:\n  No migrations to apply.',
    );
    const noApp = await call('django.migrate', 'djp.settings', 'nosuchapp', pp);
    expect(noApp).toMatchObject({ code: 1, local: "CommandError: No installed app with label 'nosuchapp'." });
    expect(
      (await call('django.createsuperuser', 'djp.settings', 'admin', 'admin@example.com', pp)).local,
    ).toBe('Superuser created successfully.');
    const again = await call('django.createsuperuser', 'djp.settings', 'admin', 'admin@example.com', pp);
    expect(again).toMatchObject({ code: 1, local: 'CommandError: Error: That username is already taken.' });
    expect((await call('django.loaddata', 'djp.settings', 'groups,more', pp, 'database=default')).local).toBe(
      'Installed 2 object(s) from 2 fixture(s)',
    );
    const dumped = await call('django.command', 'djp.settings', 'dumpdata auth.group', pp);
    expect(JSON.parse(String(dumped.local))).toHaveLength(2);
    const collected = await call('django.collectstatic', 'djp.settings', pp);
    expect(collected.local).toMatch(new RegExp(`^\\n\\d+ static files copied to '${site}/static_root'\\.$`));
    expect(existsSync(join(site, 'static_root', 'site.css'))).toBe(true);
  });

  it('command: extra positionals are --flags, extra keywords --key=value; syncdb is gone from Django 3', {
    timeout: 240_000,
  }, async () => {
    // positionally: settings_module, command, bin_env, pythonpath, env, runas, then *args
    const deploy = await call(
      'django.command',
      'djp.settings',
      'check',
      'None',
      site,
      'None',
      'None',
      'deploy',
    );
    expect(deploy.local).toMatch(/^System check identified some issues:\n\nWARNINGS:\n/);
    expect((await call('django.command', 'djp.settings', 'check', pp, 'tag=models')).local).toBe(
      'System check identified no issues (0 silenced).',
    );
    const syncdb = await call('django.syncdb', 'djp.settings', pp, 'migrate=True');
    expect(syncdb).toMatchObject({
      code: 1,
      local: "Unknown command: 'syncdb'\nType 'django-admin help' for usage.",
    });
    const missing = await call('django.command', 'djp.settings', 'check', '/nonexistent/bin/thing', pp);
    expect(missing.code).toBe(1);
    expect(missing.output).toContain(
      "Error running 'django.command': Unable to run command '['/nonexistent/bin/thing', 'check', '--settings=djp.settings', '--pythonpath=",
    );
  });
});
