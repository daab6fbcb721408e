/**
 * The `composer` module and the composer.installed / composer.update states through salt-call
 * --local, with Debian's composer and php-cli on throwaway projects that need no network (a
 * local `path` package, packagist switched off). Expectations: Salt 3006.18 on this machine
 * (31 of 31 calls identical in /tmp/tools22/cmp.mjs composer, pids and state timings aside).
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { which } from '../../modules/_which.js';
import { localCaller } from '../support/local-call.js';

type RunAll = { retcode: number; stdout: string; stderr: string; pid: number };
type StateRet = { result: boolean | null; comment: string; changes: Record<string, string> };

describe.skipIf(!which('composer') || !which('php'))('composer module and states', () => {
  const root = mkdtempSync(join(tmpdir(), 'tsalt-composer-'));
  const cz = join(root, 'cz');
  const app = join(cz, 'app');
  const home = `composer_home=${join(cz, 'home')}`;
  const call = localCaller(root, 'composer1');
  const state = async (sls: string, ...more: string[]): Promise<{ code: number | null; ret: StateRet }> => {
    const r = await call('state.apply', sls, ...more);
    return { code: r.code, ret: Object.values(r.local as Record<string, StateRet>)[0] as StateRet };
  };

  beforeAll(() => {
    for (const d of ['pkg/src', 'app', 'broken', 'home']) mkdirSync(join(cz, d), { recursive: true });
    mkdirSync(join(root, 'srv'));
    writeFileSync(
      join(cz, 'pkg', 'composer.json'),
      JSON.stringify({
        name: 'tsalt/greeter',
        version: '1.2.0',
        autoload: { 'psr-4': { 'Tsalt\\Greeter\\': 'src/' } },
      }),
    );
    writeFileSync(join(cz, 'pkg', 'src', 'Hi.php'), '<?php namespace Tsalt\\Greeter; class Hi { }\n');
    const offline = { 'packagist.org': false };
    writeFileSync(
      join(app, 'composer.json'),
      JSON.stringify({
        name: 'tsalt/app',
        require: { 'tsalt/greeter': '^1.0' },
        repositories: [{ type: 'path', url: '../pkg', options: { symlink: false } }, offline],
      }),
    );
    writeFileSync(
      join(cz, 'broken', 'composer.json'),
      JSON.stringify({ name: 'tsalt/broken', require: { 'tsalt/missing': '^9' }, repositories: [offline] }),
    );
    const sls = (name: string, dir: string, fun: string, extra = '') =>
      writeFileSync(
        join(root, 'srv', `${name}.sls`),
        `${dir}:\n  composer.${fun}:\n    - ${home.replace('=', ': ')}\n${extra}`,
      );
    sls('inst', app, 'installed');
    sls('once', app, 'installed', '    - always_check: False\n');
    sls('upd', app, 'update', '    - no_dev: True\n');
    sls('quiet', app, 'update', '    - quiet: True\n');
    sls('bad', join(cz, 'broken'), 'installed');
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('states in test mode, then install, did_composer_install, update', { timeout: 300_000 }, async () => {
    expect((await call('composer.did_composer_install', app)).local).toBe(false);
    expect((await state('inst', 'test=True')).ret).toMatchObject({
      result: null,
      comment: `The state of "${app}" will be changed.`,
      changes: {
        old: `composer install has not been run in ${app}`,
        new: `composer install will be run in ${app}`,
      },
    });
    // Salt's words for update say the opposite of what the vendor folder shows
    expect((await state('upd', 'test=True')).ret.changes.old).toBe(`composer install has been run in ${app}`);

    const installed = (await call('composer.install', app, home)).local as RunAll;
    expect(installed.retcode).toBe(0);
    expect(installed.stdout).toBe('');
    expect(installed.stderr).toContain('  - Installing tsalt/greeter (1.2.0): Mirroring from ../pkg');
    expect(existsSync(join(app, 'vendor', 'tsalt', 'greeter', 'src', 'Hi.php'))).toBe(true);
    expect((await call('composer.did_composer_install', app)).local).toBe(true);
    expect((await state('once')).ret).toMatchObject({
      result: true,
      comment: 'Composer already installed this directory',
    });
    expect((await state('upd', 'test=True')).ret.changes.old).toBe(
      `composer install has not yet been run in ${app}`,
    );

    expect((await call('composer.update', app, home, 'quiet=True')).local).toBe(true);
    const flags = (await call('composer.install', app, home, 'no_dev=True', 'optimize=True')).local as RunAll;
    expect(flags.stderr).toContain('Installing dependencies from lock file\n');
    expect(flags.stderr).toContain('Generating optimized autoload files');
  });

  it("runs the states for real, and reports Composer's failures", { timeout: 300_000 }, async () => {
    const inst = await state('inst');
    expect(inst.ret).toMatchObject({ result: true, comment: 'Composer install completed successfully' });
    expect(inst.ret.changes.stderr).toContain('Generating autoload files');
    expect((await state('quiet')).ret).toMatchObject({
      result: true,
      comment: 'Composer update completed successfully, output silenced by quiet flag',
      changes: {},
    });
    const bad = await state('bad');
    expect(bad.code).toBe(1);
    expect(bad.ret.result).toBe(false);
    expect(bad.ret.comment).toContain(`Error executing composer in '${join(cz, 'broken')}': `);
    expect(bad.ret.comment).toContain(
      'Root composer.json requires tsalt/missing, it could not be found in any version',
    );

    const nowhere = await call('composer.install', join(cz, 'nowhere'), home);
    expect(nowhere.code).toBe(1);
    expect(nowhere.output).toContain("Error running 'composer.install': \nIn Application.php line");
    expect(nowhere.output).toMatch(/Invalid working directory specified, \S+\s+does not exist/);
    const noComposer = await call('composer.install', app, 'composer=/nonexistent/composer');
    expect(noComposer.output).toContain(
      "Command required for 'composer.install' not found: 'composer.install' is not available. Couldn't find '/nonexistent/composer'.",
    );
    const noDir = await call('composer.update', 'directory=None');
    expect(noDir.output).toContain(
      "Passed invalid arguments: The 'directory' argument is required for composer.update.",
    );
    // Debian's composer has no self-update command: Salt's error carries Composer's words
    const self = await call('composer.selfupdate', home);
    expect(self.code).toBe(1);
    expect(self.output).toContain("Error running 'composer.selfupdate': ");
    expect(self.output).toContain('Command "selfupdate" is not defined.');
  });
});
