import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moduleCtx } from '../states/_test-ctx.js';
import { GEM_MISSING, useGemFixture } from '../test/support/gem-env.js';
import { which } from './_which.js';
import cmdMod from './cmd.js';
import configMod from './config.js';
import gemMod from './gem.js';

// Throwaway gems built here (tools/gem-fixture.ts), served from a local file:// source and
// installed into a temp GEM_HOME named by this process's environment; the gemrc is a temp
// file. The expectations are Salt 3006.18's returns for the same calls (tools/compare-gem.ts).
const A = 'tsalt-gemfix-a';
const B = 'tsalt-gemfix-b';
const use = useGemFixture();
const ctx = moduleCtx([cmdMod, configMod, gemMod]);
const call = (fn: string, args: unknown[] = [], kw: Record<string, unknown> = {}) =>
  ctx.call(`gem.${fn}`, args, kw);

describe.skipIf(GEM_MISSING)(
  `gem in a temp GEM_HOME${GEM_MISSING ? ` (skipped: ${GEM_MISSING})` : ''}`,
  () => {
    it('installs (a version, pre-releases), lists, finds upgrades, updates and uninstalls', async () => {
      expect(await call('version')).toMatch(/^\d+\.\d+/);
      expect(await call('list', ['tsalt-gemfix'])).toEqual({});
      expect(await call('install', [A], { version: '1.0.0' })).toBe(
        `Successfully installed ${A}-1.0.0\n1 gem installed`,
      );
      expect(await call('list', ['tsalt-gemfix'])).toEqual({ [A]: ['1.0.0'] });
      expect(await call('list_upgrades')).toEqual({ [A]: '1.1.0' });
      await call('install', [`${A} ${B}`], { pre_releases: true });
      expect(await call('list', ['tsalt-gemfix'])).toEqual({ [A]: ['2.0.0.pre1', '1.0.0'], [B]: ['0.1.0'] });
      expect(await call('update', [[B]])).toBe('Updating installed gems\nNothing to update');
      const gone = String(await call('uninstall', [`${A} ${B}`])).split('\n');
      expect(gone.sort()).toEqual(
        [`${A}-1.0.0`, `${A}-2.0.0.pre1`, `${B}-0.1.0`].map((g) => `Successfully uninstalled ${g}`),
      );
      expect(await call('list', [], { prefix: 'tsalt-gemfix' })).toEqual({});
    }, 120_000);

    it("runs gem_bin instead of gem, and raises gem's stderr as Salt does", async () => {
      expect(await call('install', [B], { gem_bin: use.fx.gemBin })).toBe(
        `Successfully installed ${B}-0.1.0\n1 gem installed`,
      );
      expect(await call('list', [B], { gem_bin: use.fx.gemBin })).toEqual({ [B]: ['0.1.0'] });
      await call('uninstall', [B]);
      await expect(call('install', ['tsalt-gemfix-nope'])).rejects.toThrow(
        "ERROR:  Could not find a valid gem 'tsalt-gemfix-nope' (>= 0) in any repository",
      );
      await expect(call('version', [], { gem_bin: path.join(use.fx.dir, 'no-such-gem') })).rejects.toThrow(
        /^Unable to run command '\['\/.*no-such-gem', '--version'\]'/,
      );
      // Salt's gem.install has no install_dir
      await expect(call('install', [A], { install_dir: use.fx.dir })).rejects.toThrow(
        /keyword arguments are not valid: install_dir/,
      );
    }, 120_000);

    it('adds, lists and removes a gem source in the gemrc', async () => {
      expect(await call('sources_list')).toEqual([use.fx.source]);
      expect(await call('sources_add', [use.fx.source2])).toBe(`${use.fx.source2} added to sources`);
      expect(await call('sources_list')).toEqual([use.fx.source, use.fx.source2]);
      expect(readFileSync(use.fx.env.GEMRC as string, 'utf8')).toContain(use.fx.source2);
      expect(await call('sources_remove', [], { source_uri: use.fx.source2 })).toBe(
        `${use.fx.source2} removed from sources`,
      );
      expect(await call('sources_list')).toEqual([use.fx.source]);
      await expect(call('sources_add', [path.join(use.fx.dir, 'not-a-uri')])).rejects.toThrow(/^$/);
    }, 120_000);

    it("goes through rbenv's shims when rbenv is there (rbenv.root), as Salt's rbenv.do does", async () => {
      const root = path.join(use.fx.dir, 'rbenv');
      const log = path.join(use.fx.dir, 'rbenv.log');
      mkdirSync(path.join(root, 'bin'), { recursive: true });
      mkdirSync(path.join(root, 'shims'), { recursive: true });
      const script = (file: string, body: string) => {
        writeFileSync(file, `#!/bin/sh\n${body}\n`);
        chmodSync(file, 0o755);
      };
      script(path.join(root, 'bin', 'rbenv'), `echo "rbenv $* root=$RBENV_ROOT" >> '${log}'`);
      script(
        path.join(root, 'shims', 'gem'),
        `echo "shim $* version=$RBENV_VERSION" >> '${log}'\nexec ${which('gem')} "$@"`,
      );
      const rb = moduleCtx([cmdMod, configMod, gemMod], { opts: { 'rbenv.root': root } });
      const rcall = (fn: string, args: unknown[] = [], kw: Record<string, unknown> = {}) =>
        rb.call(`gem.${fn}`, args, kw);
      expect(await rcall('list', [B], { ruby: '3.1.2' })).toEqual({});
      expect(await rcall('list', [B])).toEqual({});
      // under rbenv a failing gem answers False, not an error
      expect(await rcall('install', ['tsalt-gemfix-nope'])).toBe(false);
      // gem_bin bypasses rbenv
      expect(await rcall('list', [B], { gem_bin: use.fx.gemBin })).toEqual({});
      expect(readFileSync(log, 'utf8').split('\n')).toEqual([
        `shim list ${B} version=3.1.2`,
        `rbenv rehash root=${root}`,
        `shim list ${B} version=`,
        `rbenv rehash root=${root}`,
        'shim --version version=',
        `rbenv rehash root=${root}`,
        'shim install tsalt-gemfix-nope --no-document version=',
        '',
      ]);
    }, 120_000);
  },
);

// A throwaway user (root only, removed with its home) whose ~/.rvm/bin/rvm is a script that
// logs how it is run and answers like `gem list`: Salt's gem module then goes through RVM.
const canUser = process.getuid?.() === 0 && which('useradd') !== null && which('setpriv') !== null;

describe.skipIf(!canUser)('gem through RVM when the user has it', () => {
  const user = `tsgem${randomBytes(3).toString('hex')}`;
  let home = '';
  beforeAll(() => {
    execFileSync('useradd', ['-m', '-s', '/bin/sh', user]);
    home = execFileSync('getent', ['passwd', user], { encoding: 'utf8' }).split(':')[5] as string;
    mkdirSync(path.join(home, '.rvm', 'bin'), { recursive: true });
    const rvm = path.join(home, '.rvm', 'bin', 'rvm');
    const body = [
      '#!/bin/sh',
      `echo "$(id -un): $*" >> '${home}/rvm.log'`,
      'case "$*" in *nope*) exit 1 ;; esac',
      `echo '${A} (9.9.9, 1.0.0)'`,
      '',
    ];
    writeFileSync(rvm, body.join('\n'));
    chmodSync(rvm, 0o755);
    writeFileSync(path.join(home, 'rvm.log'), '');
    execFileSync('chown', [`${user}:`, path.join(home, 'rvm.log')]);
  });
  afterAll(() => {
    execFileSync('userdel', ['-r', user], { stdio: 'ignore' });
  });

  it('runs `rvm <ruby|default> do gem ...` as the user; a failure answers False', async () => {
    expect(await call('list', [A], { runas: user, ruby: '3.1@tsalt' })).toEqual({ [A]: ['9.9.9', '1.0.0'] });
    expect(await call('uninstall', ['tsalt-gemfix-nope'], { runas: user })).toBe(false);
    expect(readFileSync(path.join(home, 'rvm.log'), 'utf8').split('\n')).toEqual([
      `${user}: 3.1@tsalt do gem list ${A}`,
      `${user}: default do gem uninstall tsalt-gemfix-nope -a -x`,
      '',
    ]);
  }, 60_000);
});
