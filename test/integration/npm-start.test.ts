/**
 * `npm start` as the README has a new user run it: a master and a local minion from
 * `.tsalt/etc/salt` beside the package, `bin/salt '*' test.ping` answering, Ctrl-C stopping both.
 * It runs from a copy of dist/ in a temporary package root (its `.tsalt` is then the copy's, not
 * the checkout's), with the two config files written first on free ports (`npm start` keeps
 * existing files). The minion starts once the master's request port answers, so its first
 * sign-in never times out against a master still starting (a loaded machine takes seconds).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../kernel/process/ports.js';
import { REPO } from '../../tools/local-cluster.js';

const until = async (what: string, ok: () => boolean, timeoutMs = 90_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

function run(cmd: string, args: string[]): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve) => {
    const p = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    p.stdout.on('data', (d) => (stdout += d));
    p.on('exit', (code) => resolve({ code, stdout }));
  });
}

describe('npm start', () => {
  const root = mkdtempSync(join(tmpdir(), 'tsalt-npm-start-'));
  let start: ChildProcess | undefined;
  afterAll(() => {
    if (start && start.exitCode === null) start.kill('SIGKILL');
    rmSync(root, { recursive: true, force: true });
  });

  it('starts a master and a minion that answer test.ping, with no failed sign-in, and stops both', async () => {
    cpSync(join(REPO, 'dist'), join(root, 'dist'), { recursive: true });
    symlinkSync(join(REPO, 'node_modules'), join(root, 'node_modules'));
    writeFileSync(join(root, 'package.json'), '{"type": "module"}\n');
    const etc = join(root, '.tsalt', 'etc', 'salt');
    mkdirSync(etc, { recursive: true });
    const [pub, ret] = [await freePort(), await freePort()];
    const base = [`root_dir: ${join(root, '.tsalt')}`, `user: ${userInfo().username}`, 'log_level: info'];
    writeFileSync(
      join(etc, 'master'),
      [
        ...base,
        'interface: 127.0.0.1',
        `publish_port: ${pub}`,
        `ret_port: ${ret}`,
        'auto_accept: true',
        '',
      ].join('\n'),
    );
    const id = hostname().split('.')[0] || 'local-minion';
    writeFileSync(
      join(etc, 'minion'),
      [...base, `id: ${id}`, 'master: 127.0.0.1', `master_port: ${ret}`, 'acceptance_wait_time: 1', ''].join(
        '\n',
      ),
    );

    let output = '';
    const child = spawn(process.execPath, [join(root, 'dist', 'cli', 'start.js')], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    start = child;
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    await until('the minion to start', () => output.includes('salt-minion started'));
    expect(output).not.toContain('sign-in failed');

    const ping = await run(process.execPath, [join(REPO, 'bin', 'salt'), '-c', etc, '*', 'test.ping']);
    expect(ping.stdout).toBe(`${id}:\n    True\n`);
    expect(ping.code).toBe(0);

    child.kill('SIGINT');
    await until('npm start to stop', () => child.exitCode !== null);
    expect(output).toContain('salt-master stopped');
  }, 180_000);
});
