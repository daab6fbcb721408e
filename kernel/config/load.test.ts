import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SALT_ERR_CONFIG_INVALID, SALT_ERR_CONFIG_LOAD, type SaltError } from '../errors.js';
import { loadConfig } from './load.js';

let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tsalt-config-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function write(name: string, text: string): Promise<string> {
  const file = join(dir, name);
  await mkdir(join(file, '..'), { recursive: true });
  await writeFile(file, text);
  return file;
}

async function failure(promise: Promise<unknown>): Promise<SaltError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (error === undefined) throw new Error('expected a rejection');
  return error as SaltError;
}

describe('loadConfig: no file', () => {
  it('returns all defaults and path null', async () => {
    const { path, config, warnings } = await loadConfig('master', dir);
    expect(path).toBeNull();
    expect(warnings).toEqual([]);
    expect(config.ret_port).toBe(4506);
    expect(config.conf_file).toBe(join(dir, 'master'));
    expect(config.config_dir).toBe(dir);
  });

  it('warns when the directory does not exist', async () => {
    const { path, warnings } = await loadConfig('minion', join(dir, 'missing'));
    expect(path).toBeNull();
    expect(warnings[0]).toMatch(/does not exist/);
  });
});

describe('loadConfig: Salt plain YAML file', () => {
  it('reads the extension-less master file with Salt semantics', async () => {
    const file = await write(
      'master',
      [
        '# Salt master config',
        'interface: 127.0.0.1',
        'publish_port: 14505',
        "ret_port: '14506'",
        'auto_accept: True',
        'open_mode: no',
        'worker_threads: 2',
        'root_dir: /tmp/salt-root',
        'user: root',
        'nodegroups:',
        '  web: G@role:web',
        'file_roots:',
        '  base: /srv/salt',
        'gitfs_remotes: [https://example.invalid/states.git]',
        '',
      ].join('\n'),
    );
    const { path, config, warnings } = await loadConfig('master', dir);
    expect(path).toBe(file);
    expect(config).toMatchObject({
      interface: '127.0.0.1',
      publish_port: 14505,
      ret_port: 14506,
      auto_accept: true,
      open_mode: false,
      worker_threads: 2,
      user: 'root',
      nodegroups: { web: 'G@role:web' },
      file_roots: { base: ['/srv/salt'] },
      pki_dir: '/tmp/salt-root/etc/salt/pki/master',
      conf_file: file,
    });
    expect(config.extra).toEqual({ gitfs_remotes: ['https://example.invalid/states.git'] });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('unknown option "gitfs_remotes"');
  });

  it('reads the minion file', async () => {
    await write('minion', 'id: 1001\nmaster: 127.0.0.1\nmaster_port: 14506\n');
    const { config } = await loadConfig('minion', dir);
    expect(config.id).toBe('1001');
    expect(config.master).toBe('127.0.0.1');
    expect(config.master_port).toBe(14506);
  });

  it('throws SALT_ERR_CONFIG_LOAD for unparsable YAML', async () => {
    const file = await write('master', 'interface: [127.0.0.1\n');
    const error = await failure(loadConfig('master', dir));
    expect(error).toBeInstanceOf(SALT_ERR_CONFIG_LOAD);
    expect(error.code).toBe('SALT_ERR_CONFIG_LOAD');
    expect(error.message).toContain(file);
    expect(error.cause).toBeDefined();
  });

  it('throws SALT_ERR_CONFIG_INVALID naming each bad key', async () => {
    const file = await write('master', 'ret_port: abc\nworker_threads: 0\n');
    const error = await failure(loadConfig('master', dir));
    expect(error).toBeInstanceOf(SALT_ERR_CONFIG_INVALID);
    expect(error.code).toBe('SALT_ERR_CONFIG_INVALID');
    expect(error.message).toContain(`invalid configuration in ${file}`);
    expect(error.message).toContain('ret_port: expected an integer from 1 to 65535, got "abc"');
    expect(error.message).toContain('worker_threads: expected an integer >= 1, got 0');
    expect(error.details).toHaveLength(2);
  });
});

describe('loadConfig: master.d/*.conf (default_include)', () => {
  it('merges includes in sorted order over the main file', async () => {
    await write('master', 'timeout: 1\nshow_jid: true\nnodegroups:\n  main: m*\n');
    await write('master.d/20-late.conf', 'timeout: 3\n');
    await write('master.d/10-early.conf', 'timeout: 2\ngather_job_timeout: 20\nnodegroups:\n  inc: i*\n');
    await write('master.d/ignored.txt', 'timeout: 99\n');
    const { config } = await loadConfig('master', dir);
    expect(config.timeout).toBe(3);
    expect(config.gather_job_timeout).toBe(20);
    expect(config.show_jid).toBe(true);
    // Salt replaces top-level keys of the main file with the includes' (no deep merge there).
    expect(config.nodegroups).toEqual({ inc: 'i*' });
  });

  it('loads includes even without a main file, and names the include in errors', async () => {
    const conf = await write('master.d/bad.conf', 'ret_port: 0\n');
    const error = await failure(loadConfig('master', dir));
    expect(error.message).toContain(`invalid configuration in ${dir}`);
    expect(error.message).toContain(`ret_port: expected an integer from 1 to 65535, got 0 (set in ${conf})`);
  });

  it('honours default_include and include set in the main file', async () => {
    await write('master', 'default_include: conf/*.yml\ninclude: [extra.conf, nothing/*.conf]\n');
    await write('conf/a.yml', 'timeout: 7\n');
    await write('master.d/a.conf', 'timeout: 99\n');
    await write('extra.conf', 'worker_threads: 9\n');
    const { config, warnings } = await loadConfig('master', dir);
    expect(config.timeout).toBe(7);
    expect(config.worker_threads).toBe(9);
    expect(warnings).toEqual(['include "nothing/*.conf" matches no files']);
  });

  it('throws SALT_ERR_CONFIG_LOAD for an unparsable include', async () => {
    const conf = await write('minion.d/broken.conf', 'a: [\n');
    const error = await failure(loadConfig('minion', dir));
    expect(error).toBeInstanceOf(SALT_ERR_CONFIG_LOAD);
    expect(error.message).toContain(conf);
  });
});

describe('loadConfig: data and module configs', () => {
  it('reads master.config.json', async () => {
    const file = await write(
      'master.config.json',
      JSON.stringify({ ret_port: 5506, extensions: ['tsalt-x'] }),
    );
    const { path, config } = await loadConfig('master', dir);
    expect(path).toBe(file);
    expect(config.ret_port).toBe(5506);
    expect(config.extensions).toEqual(['tsalt-x']);
  });

  it('reads master.config.yaml', async () => {
    await write('master.config.yaml', 'ret_port: 5507\n');
    expect((await loadConfig('master', dir)).config.ret_port).toBe(5507);
  });

  it('loads master.config.ts through cosmiconfig and keeps plugins as values', async () => {
    const file = await write(
      'master.config.ts',
      [
        "import type { UserMasterConfig } from './types.js';",
        'interface Plugin { name: string; apply(api: unknown): void }',
        'const defineConfig = (config: UserMasterConfig): UserMasterConfig => config;',
        'const counter: Plugin = { name: "counter", apply(_api: unknown): void {} };',
        'export default defineConfig({ ret_port: 6506, worker_threads: 3, plugins: [counter] });',
        '',
      ].join('\n'),
    );
    await write('master', 'ret_port: 1\n');
    const { path, config, warnings } = await loadConfig('master', dir);
    expect(path).toBe(file);
    expect(config.ret_port).toBe(6506);
    expect(config.worker_threads).toBe(3);
    expect(config.plugins.map((p) => p.name)).toEqual(['counter']);
    expect(typeof config.plugins[0]?.apply).toBe('function');
    expect(warnings[0]).toContain(`ignoring ${join(dir, 'master')}`);
  });

  it('calls a config function exported by master.config.mjs with { kind }', async () => {
    await write(
      'minion.config.mjs',
      'export default async (env) => ({ id: "from-" + env.kind, master: ["a", "b"] });\n',
    );
    const { config } = await loadConfig('minion', dir);
    expect(config.id).toBe('from-minion');
    expect(config.master).toEqual(['a', 'b']);
  });

  it('awaits a promise exported by master.config.js', async () => {
    await write('master.config.js', 'export default Promise.resolve({ timeout: 11 });\n');
    const { config } = await loadConfig('master', dir);
    expect(config.timeout).toBe(11);
  });

  it('wraps a throwing module config in SALT_ERR_CONFIG_LOAD', async () => {
    const file = await write('master.config.mjs', 'throw new Error("boom");\n');
    const error = await failure(loadConfig('master', dir));
    expect(error).toBeInstanceOf(SALT_ERR_CONFIG_LOAD);
    expect(error.message).toContain(file);
    expect((error.cause as Error).message).toBe('boom');
  });

  it('rejects a module config without a default export', async () => {
    await write('master.config.mjs', 'export const ret_port = 1;\n');
    const error = await failure(loadConfig('master', dir));
    expect(error).toBeInstanceOf(SALT_ERR_CONFIG_LOAD);
    expect((error.cause as Error).message).toMatch(/no default export/);
  });

  it('treats an empty module config as empty', async () => {
    await write('master.config.js', '');
    expect((await loadConfig('master', dir)).config.ret_port).toBe(4506);
  });

  it('rejects a module config that does not export a mapping', async () => {
    await write('master.config.mjs', 'export default 42;\n');
    const error = await failure(loadConfig('master', dir));
    expect(error).toBeInstanceOf(SALT_ERR_CONFIG_LOAD);
    expect((error.cause as Error).message).toMatch(/not a number/);
  });
});

describe('loadConfig: overrides', () => {
  it('win over files and are named in errors', async () => {
    await write('master', 'log_level: info\n');
    const { config } = await loadConfig('master', dir, { log_level: 'debug' });
    expect(config.log_level).toBe('debug');
    const error = await failure(loadConfig('master', dir, { ret_port: 0 }));
    expect(error.message).toContain('(set in overrides)');
  });
});
