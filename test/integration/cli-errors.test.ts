import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO } from '../../tools/local-cluster.js';

const root = mkdtempSync(join(tmpdir(), 'tsalt-cli-'));
const conf = join(root, 'etc');
mkdirSync(conf);
writeFileSync(join(conf, 'master'), `root_dir: ${root}\n`);

function cli(name: string, args: string[], confDir = conf) {
  const r = spawnSync(process.execPath, [join(REPO, 'dist/cli', `${name}.js`), '-c', confDir, ...args], {
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('command-line errors are clear, with Salt-like exit codes', () => {
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('salt without a running master says so at once', () => {
    const started = Date.now();
    const r = cli('salt', ['*', 'test.ping']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Is the salt-master running?');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('salt without a function prints its help and exits 42, as Salt does', () => {
    const r = cli('salt', ['*']);
    expect(r.code).toBe(42);
    expect(r.stdout).toMatch(/^Usage: salt \[options\] '<target>' <function> \[arguments\]\n/);
    expect(r.stderr).toBe('\nIncomplete options passed.\n\n');
  });

  it("an unknown option or two target types are refused before anything is sent, with optparse's exit 64", () => {
    const bogus = cli('salt', ['--bogus', '*', 'test.ping']);
    expect(bogus.code).toBe(64);
    expect(bogus.stderr).toContain('salt: error: no such option: --bogus');
    const both = cli('salt', ['-G', '-E', 'x', 'test.ping']);
    expect(both.code).toBe(64);
    expect(both.stderr).toContain('are mutually exclusive');
  });

  it('salt-key refuses a bad listing argument', () => {
    const r = cli('salt-key', ['-l', 'sideways']);
    expect(r.code).toBe(64);
    expect(r.stderr).toContain("salt-key: error: 'sideways' is not a valid argument to '--list'");
  });

  it('a wrong config names the key and the expectation, and the master does not start', () => {
    const bad = join(root, 'bad');
    mkdirSync(bad);
    writeFileSync(join(bad, 'master'), `root_dir: ${root}\nret_port: abc\nworker_threads: -2\n`);
    const r = cli('salt-master', [], bad);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('SALT_ERR_CONFIG_INVALID');
    expect(r.stderr).toMatch(/ret_port: .*abc/);
    expect(r.stderr).toMatch(/worker_threads/);
  });

  it('--version works everywhere', () => {
    for (const name of ['salt', 'salt-key', 'salt-master', 'salt-minion']) {
      const r = cli(name, ['--version']);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`^${name} 3006\\.18 \\(Sulfur; tsalt \\d+\\.\\d+\\.\\d+\\)\\n$`));
    }
  });

  it('an unusable state directory is named, and the master does not start', () => {
    const blocked = join(root, 'blocked');
    mkdirSync(blocked);
    writeFileSync(join(root, 'a-file'), 'not a directory');
    writeFileSync(join(blocked, 'master'), `root_dir: ${join(root, 'a-file')}\n`);
    const r = cli('salt-master', [], blocked);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('SALT_ERR_PROCESS_DIR');
    expect(r.stderr).toContain(join(root, 'a-file'));
  });
});
