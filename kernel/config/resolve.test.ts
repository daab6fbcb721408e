import { userInfo } from 'node:os';
import { describe, expect, it } from 'vitest';
import { SALT_ERR_CONFIG_INVALID, type SaltError } from '../errors.js';
import { resolveConfig } from './resolve.js';

const ctx = { label: '/etc/salt/master' };

function invalid(fn: () => unknown): SaltError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(SALT_ERR_CONFIG_INVALID);
    return error as SaltError;
  }
  throw new Error('expected SALT_ERR_CONFIG_INVALID');
}

describe('resolveConfig: master defaults (Salt 3006 DEFAULT_MASTER_OPTS)', () => {
  const { config, warnings } = resolveConfig('master', {}, ctx);

  it('has Salt defaults', () => {
    expect(warnings).toEqual([]);
    expect(config).toMatchObject({
      interface: '0.0.0.0',
      ipv6: null,
      publish_port: 4505,
      ret_port: 4506,
      root_dir: '/',
      pki_dir: '/etc/salt/pki/master',
      cachedir: '/var/cache/salt/master',
      sock_dir: '/var/run/salt/master',
      pidfile: '/var/run/salt-master.pid',
      log_file: '/var/log/salt/master',
      key_logfile: '/var/log/salt/key',
      log_level: 'warning',
      log_level_logfile: null,
      log_fmt_console: '[%(levelname)-8s] %(message)s',
      worker_threads: 5,
      auto_accept: false,
      open_mode: false,
      autosign_file: null,
      autoreject_file: null,
      autosign_grains_dir: null,
      timeout: 5,
      gather_job_timeout: 10,
      keep_jobs: 24,
      keep_jobs_seconds: 86400,
      loop_interval: 60,
      publish_session: 86400,
      rotate_aes_key: true,
      sign_pub_messages: true,
      minimum_auth_version: 3,
      max_minions: 0,
      auth_events: true,
      hash_type: 'sha256',
      keysize: 2048,
      extension_modules: '/var/cache/salt/master/extmods',
      module_dirs: [],
      extensions: [],
      plugins: [],
      job_cache: true,
      master_job_cache: 'job_store',
      ext_job_cache: '',
      nodegroups: {},
      ipc_mode: 'ipc',
      zmq_backlog: 1000,
      pub_hwm: 1000,
      publisher_acl: {},
      external_auth: {},
      presence_events: false,
      show_jid: false,
      show_timeout: true,
      color: true,
      unique_jid: false,
      max_event_size: 1048576,
      process_kill_timeout_ms: 10000,
      default_include: 'master.d/*.conf',
      extra: {},
    });
  });

  it('runs as the current user by default', () => {
    expect(config.user).toBe(userInfo().username);
  });

  it('is deeply frozen', () => {
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.module_dirs)).toBe(true);
    expect(Object.isFrozen(config.extra)).toBe(true);
  });
});

describe('resolveConfig: minion defaults (Salt 3006 DEFAULT_MINION_OPTS)', () => {
  it('has Salt defaults', () => {
    const { config } = resolveConfig('minion', {}, ctx);
    expect(config).toMatchObject({
      id: null,
      master: 'salt',
      master_port: 4506,
      publish_port: 4505,
      root_dir: '/',
      pki_dir: '/etc/salt/pki/minion',
      cachedir: '/var/cache/salt/minion',
      sock_dir: '/var/run/salt/minion',
      pidfile: '/var/run/salt-minion.pid',
      log_file: '/var/log/salt/minion',
      log_level: 'warning',
      multiprocessing: true,
      acceptance_wait_time: 10,
      acceptance_wait_time_max: 0,
      random_reauth_delay: 10,
      auth_timeout: 5,
      auth_tries: 7,
      rejected_retry: false,
      return_retry_timer: 5,
      return_retry_timer_max: 10,
      return_retry_tries: 3,
      request_channel_timeout: 60,
      request_channel_tries: 3,
      grains: {},
      module_dirs: [],
      extension_modules: '/var/cache/salt/minion/extmods',
      extensions: [],
      disable_modules: [],
      encryption_algorithm: 'OAEP-SHA1',
      signing_algorithm: 'PKCS1v15-SHA1',
      sign_pub_messages: false,
      minion_jid_queue_hwm: 100,
      recon_default: 1000,
      recon_max: 10000,
      recon_randomize: true,
      process_count_max: -1,
      ipc_mode: 'ipc',
      enable_legacy_startup_events: true,
      grains_cache: false,
      master_tries: 1,
      ping_interval: 0,
      tcp_keepalive: true,
      default_include: 'minion.d/*.conf',
    });
  });

  it('takes a master list, a numeric id and a comma list of returners', () => {
    const { config } = resolveConfig('minion', { master: ['m1', 'm2'], id: '42', return: 'a, b' }, ctx);
    expect(config.master).toEqual(['m1', 'm2']);
    expect(config.id).toBe('42');
    expect(config.return).toEqual(['a', 'b']);
  });
});

describe('resolveConfig: coercion where Salt coerces', () => {
  it('turns numeric strings into numbers and numbers into strings', () => {
    const { config } = resolveConfig(
      'master',
      { ret_port: '4510', timeout: '2.5', master_job_cache: 5 },
      ctx,
    );
    expect(config.ret_port).toBe(4510);
    expect(config.timeout).toBe(2.5);
    expect(config.master_job_cache).toBe('5');
  });

  it('lowercases log levels and hash_type', () => {
    const { config } = resolveConfig('master', { log_level: 'DEBUG', hash_type: 'SHA512' }, ctx);
    expect(config.log_level).toBe('debug');
    expect(config.hash_type).toBe('sha512');
  });

  it('treats a null collection (children commented out) as its default', () => {
    const { config } = resolveConfig(
      'master',
      { nodegroups: null, external_auth: null, module_dirs: null },
      ctx,
    );
    expect(config.nodegroups).toEqual({});
    expect(config.external_auth).toEqual({});
    expect(config.module_dirs).toEqual([]);
  });

  it('repacks a nodegroups list of one-key mappings (Salt repack_dictlist)', () => {
    const { config } = resolveConfig(
      'master',
      { nodegroups: [{ web: 'G@role:web' }, { db: ['db1', 'db2'] }] },
      ctx,
    );
    expect(config.nodegroups).toEqual({ web: 'G@role:web', db: ['db1', 'db2'] });
  });
});

describe('resolveConfig: keep_jobs (Salt get_keep_jobs_seconds)', () => {
  it('converts legacy hours when keep_jobs_seconds keeps its default', () => {
    const { config, warnings } = resolveConfig('master', { keep_jobs: 2 }, ctx);
    expect(config.keep_jobs_seconds).toBe(7200);
    expect(warnings.join('\n')).toMatch(/"keep_jobs" is deprecated/);
  });

  it('prefers an explicit keep_jobs_seconds', () => {
    const { config, warnings } = resolveConfig('master', { keep_jobs: 2, keep_jobs_seconds: 60 }, ctx);
    expect(config.keep_jobs_seconds).toBe(60);
    expect(warnings).toEqual([]);
  });
});

describe('resolveConfig: unknown options', () => {
  it('warns, suggests a near name, and keeps the value in extra; dotted unit options are not warned about', () => {
    const { config, warnings } = resolveConfig(
      'master',
      { ret_prot: 1, 'mysql.host': 'db' },
      {
        label: '/etc/salt/master',
        sourceOf: (key) => (key === 'ret_prot' ? '/etc/salt/master.d/a.conf' : undefined),
      },
    );
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('unknown option "ret_prot" (set in /etc/salt/master.d/a.conf)');
    expect(warnings[0]).toContain('did you mean "ret_port"?');
    expect(config.extra).toEqual({ ret_prot: 1, 'mysql.host': 'db' });
    expect(config.ret_port).toBe(4506);
  });

  it('does not warn about an sdb profile (a mapping with a driver), which it keeps in extra', () => {
    const { config, warnings } = resolveConfig(
      'minion',
      { mykv: { driver: 'sqlite3', database: '/tmp/x.sqlite' }, mykw: { drive: 'x' } },
      ctx,
    );
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('unknown option "mykw"');
    expect(config.extra.mykv).toEqual({ driver: 'sqlite3', database: '/tmp/x.sqlite' });
  });
});

describe('resolveConfig: invalid values', () => {
  it('lists every bad key with its path, the expectation and the value', () => {
    const error = invalid(() =>
      resolveConfig(
        'master',
        {
          ret_port: 'abc',
          publish_port: 70000,
          auto_accept: 'maybe',
          module_dirs: ['/ok', 3],
          ipc_mode: 'udp',
          nodegroups: { web: 5 },
          worker_threads: 2.5,
        },
        ctx,
      ),
    );
    expect(error.code).toBe('SALT_ERR_CONFIG_INVALID');
    expect(error.message).toContain('invalid configuration in /etc/salt/master:');
    expect(error.message).toContain('ret_port: expected an integer from 1 to 65535, got "abc"');
    expect(error.message).toContain('publish_port: expected an integer from 1 to 65535, got 70000');
    expect(error.message).toContain('auto_accept: expected a boolean (true or false), got "maybe"');
    expect(error.message).toContain('module_dirs[1]: expected a list of strings, got 3');
    expect(error.message).toContain("ipc_mode: expected one of 'ipc', 'tcp', got \"udp\"");
    expect(error.message).toContain(
      'nodegroups.web: expected a compound target string or a list of targets, got 5',
    );
    expect(error.message).toContain('worker_threads: expected an integer >= 1, got 2.5');
    expect(Array.isArray(error.details)).toBe(true);
    expect((error.details as unknown[]).length).toBe(7);
  });

  it('names the file a bad key came from', () => {
    const error = invalid(() =>
      resolveConfig(
        'master',
        { timeout: null },
        { label: '/c/master', sourceOf: () => '/c/master.d/t.conf' },
      ),
    );
    expect(error.message).toContain('timeout: expected a number >= 0, got null (set in /c/master.d/t.conf)');
  });

  it('rejects plugins that are not plugin objects', () => {
    const error = invalid(() => resolveConfig('master', { plugins: [{ name: 'x' }] }, ctx));
    expect(error.message).toContain(
      'plugins[0]: expected a plugin: an object with a string `name` and an `apply` function',
    );
  });

  it('rejects algorithms Salt 3006 does not support', () => {
    const error = invalid(() => resolveConfig('minion', { encryption_algorithm: 'OAEP-SHA256' }, ctx));
    expect(error.message).toContain("encryption_algorithm: expected one of 'OAEP-SHA1', 'OAEP-SHA224'");
  });
});

describe('resolveConfig: plugins', () => {
  it('keeps plugin objects as they are, unfrozen', () => {
    const plugin = { name: 'p', state: 0, apply: () => undefined };
    const { config } = resolveConfig('master', { plugins: [plugin] }, ctx);
    expect(config.plugins[0]).toBe(plugin);
    expect(Object.isFrozen(plugin)).toBe(false);
    expect(Object.isFrozen(config.plugins)).toBe(true);
  });
});
