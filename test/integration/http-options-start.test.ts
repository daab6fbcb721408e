import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO } from '../../tools/local-cluster.js';

const root = mkdtempSync(join(tmpdir(), 'tsalt-http-opts-'));

/** Starts daemon `name` with config `text`; it must refuse before doing anything. */
function start(name: 'salt-master' | 'salt-minion', text: string) {
  const dir = join(root, `${name}-${Math.random().toString(36).slice(2)}`);
  mkdirSync(dir);
  writeFileSync(join(dir, name.slice(5)), `root_dir: ${dir}\n${text}`);
  const r = spawnSync(process.execPath, [join(REPO, 'dist/cli', `${name}.js`), '-c', dir], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: r.status, stderr: r.stderr };
}

describe('the http_* and proxy_* options are checked when a daemon starts (plugins/http)', () => {
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('a bad value stops the master with SALT_ERR_CONFIG_INVALID naming it', () => {
    const r = start('salt-master', 'http_max_body: lots\n');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('SALT_ERR_CONFIG_INVALID');
    expect(r.stderr).toContain('http_max_body: expected an integer >= 0, got "lots"');
    // the error alone: no stack trace from the log file's stream closing at exit
    expect(r.stderr).not.toMatch(/^\s+at /m);
  });

  it('a bad value stops the minion before it looks for its master', () => {
    const r = start('salt-minion', 'id: m1\nmaster: 127.0.0.1\nmaster_port: 1\nproxy_port: 70000\n');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('SALT_ERR_CONFIG_INVALID');
    expect(r.stderr).toContain('proxy_port: expected an integer from 0 to 65535, got 70000');
    const list = start('salt-minion', 'id: m1\nmaster: 127.0.0.1\nmaster_port: 1\nno_proxy: example.org\n');
    expect(list.code).toBe(1);
    expect(list.stderr).toContain('no_proxy: expected a list of strings');
  });
});
