import { posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { adjustLogFile, hasUrlScheme, prependRootDir } from './paths.js';
import { resolveConfig } from './resolve.js';

const ctx = { label: 'test' };

describe('prependRootDir (Salt prepend_root_dir)', () => {
  it('places absolute and relative paths under root_dir', () => {
    expect(prependRootDir('/tmp/x', '/etc/salt/pki/master')).toBe('/tmp/x/etc/salt/pki/master');
    expect(prependRootDir('/tmp/x', 'pki')).toBe('/tmp/x/pki');
    expect(prependRootDir('/tmp/x/', '/var/run')).toBe('/tmp/x/var/run');
  });

  it('leaves paths already under root_dir alone', () => {
    expect(prependRootDir('/tmp/x', '/tmp/x/pki')).toBe('/tmp/x/pki');
    expect(prependRootDir('/tmp/x', '/tmp/x//pki/')).toBe('/tmp/x/pki');
    expect(prependRootDir('/tmp/x', '/tmp/xy/pki')).toBe('/tmp/x/tmp/xy/pki');
  });

  it('is the identity for absolute paths under the default root', () => {
    expect(prependRootDir('/', '/etc/salt/pki/master')).toBe('/etc/salt/pki/master');
    expect(prependRootDir('/', 'relative')).toBe('/relative');
  });

  it('makes a relative root_dir absolute against the working directory', () => {
    expect(prependRootDir('rel', '/etc')).toBe(posix.join(process.cwd(), 'rel', 'etc'));
  });
});

describe('hasUrlScheme (Salt should_prepend_root_dir)', () => {
  it('knows URLs from paths', () => {
    expect(hasUrlScheme('udp://localhost:514')).toBe(true);
    expect(hasUrlScheme('file:///dev/log')).toBe(true);
    expect(hasUrlScheme('tcp://h:1')).toBe(true);
    expect(hasUrlScheme('/var/log/salt/master')).toBe(false);
    expect(hasUrlScheme('logs/master')).toBe(false);
    expect(hasUrlScheme('1abc://x')).toBe(false);
  });
});

describe('adjustLogFile (Salt _adjust_log_file_override)', () => {
  it('places the default file name in log_dir', () => {
    expect(adjustLogFile({ log_dir: '/l' }, '/var/log/salt/master').log_file).toBe('/l/master');
  });
  it('places a relative log_file in log_dir and keeps an absolute one', () => {
    expect(adjustLogFile({ log_dir: '/l', log_file: 'm.log' }, '/x').log_file).toBe('/l/m.log');
    expect(adjustLogFile({ log_dir: '/l', log_file: '/abs.log' }, '/x').log_file).toBe('/abs.log');
  });
});

describe('resolved paths', () => {
  it('prefixes the master path options with root_dir as Salt does', () => {
    const { config } = resolveConfig(
      'master',
      { root_dir: '/tmp/x', autosign_file: '/etc/salt/autosign.conf', autoreject_file: 'autoreject.conf' },
      ctx,
    );
    expect(config.root_dir).toBe('/tmp/x');
    expect(config.pki_dir).toBe('/tmp/x/etc/salt/pki/master');
    expect(config.cachedir).toBe('/tmp/x/var/cache/salt/master');
    expect(config.sock_dir).toBe('/tmp/x/var/run/salt/master');
    expect(config.pidfile).toBe('/tmp/x/var/run/salt-master.pid');
    expect(config.log_file).toBe('/tmp/x/var/log/salt/master');
    expect(config.key_logfile).toBe('/tmp/x/var/log/salt/key');
    expect(config.extension_modules).toBe('/tmp/x/var/cache/salt/master/extmods');
    expect(config.autosign_file).toBe('/tmp/x/etc/salt/autosign.conf');
    expect(config.autoreject_file).toBe('/tmp/x/autoreject.conf');
    expect(config.autosign_grains_dir).toBeNull();
  });

  it('prefixes the minion path options with root_dir as Salt does', () => {
    const { config } = resolveConfig('minion', { root_dir: '/srv/m1', pki_dir: '/srv/m1/pki' }, ctx);
    expect(config.pki_dir).toBe('/srv/m1/pki');
    expect(config.cachedir).toBe('/srv/m1/var/cache/salt/minion');
    expect(config.sock_dir).toBe('/srv/m1/var/run/salt/minion');
    expect(config.pidfile).toBe('/srv/m1/var/run/salt-minion.pid');
    expect(config.log_file).toBe('/srv/m1/var/log/salt/minion');
    expect(config.extension_modules).toBe('/srv/m1/var/cache/salt/minion/extmods');
  });

  it('does not prefix a log_file URL', () => {
    const { config } = resolveConfig('master', { root_dir: '/tmp/x', log_file: 'udp://loghost:514' }, ctx);
    expect(config.log_file).toBe('udp://loghost:514');
  });

  it('derives extension_modules from cachedir when unset, and keeps it when set', () => {
    const derived = resolveConfig('master', { root_dir: '/r', cachedir: '/c' }, ctx).config;
    expect(derived.extension_modules).toBe('/r/c/extmods');
    const set = resolveConfig('master', { root_dir: '/r', extension_modules: '/ext' }, ctx).config;
    expect(set.extension_modules).toBe('/r/ext');
  });

  it('moves a sock_dir much longer than cachedir under cachedir (Salt)', () => {
    const { config } = resolveConfig('master', { cachedir: '/c', sock_dir: '/a/very/long/socket/dir' }, ctx);
    expect(config.sock_dir).toBe('/c/.salt-unix');
  });

  it('applies log_dir before prefixing', () => {
    const { config } = resolveConfig('minion', { root_dir: '/r', log_dir: '/logs' }, ctx);
    expect(config.log_file).toBe('/r/logs/minion');
  });

  it('resolves relative module_dirs against the working directory', () => {
    const { config } = resolveConfig('minion', { module_dirs: ['mods', '/abs'] }, ctx);
    expect(config.module_dirs).toEqual([posix.join(process.cwd(), 'mods'), '/abs']);
  });
});
