import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAEMONIZED_ENV, daemonize, isDaemonized, stripDaemonFlags } from './daemonize.js';

// The "daemon": records how it was started, prints to stdout (the log file), idles.
const DAEMON = `
  import { writeFileSync } from 'node:fs';
  writeFileSync(process.env.INFO_FILE, JSON.stringify({ argv: process.argv.slice(2), env: process.env.${DAEMONIZED_ENV}, cwd: process.cwd() }));
  process.stdout.write('daemon says hi\\n');
  setInterval(() => {}, 1000);
`;

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tsalt-daemon-'));
  await writeFile(join(dir, 'daemon.mjs'), DAEMON);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function waitFor(check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('stripDaemonFlags', () => {
  it('removes -d and --daemon, but not after --', () => {
    expect(stripDaemonFlags(['-c', '/etc/salt', '-d', '--daemon', '-l', 'debug', '--', '-d'])).toEqual([
      '-c',
      '/etc/salt',
      '-l',
      'debug',
      '--',
      '-d',
    ]);
  });
});

describe('daemonize', () => {
  it('re-spawns the command detached, without -d, with output to the log file', async () => {
    const info = join(dir, 'info.json');
    const logFile = join(dir, 'log', 'master.log');
    process.env.INFO_FILE = info;
    let pid = 0;
    try {
      pid = await daemonize(
        [process.execPath, join(dir, 'daemon.mjs'), '-c', 'conf', '-d', '-l', 'info'],
        logFile,
      );
      expect(pid).toBeGreaterThan(0);
      await waitFor(() => existsSync(info) && readFileSync(logFile, 'utf8').includes('daemon says hi'));
      const seen = JSON.parse(await readFile(info, 'utf8')) as { argv: string[]; env: string; cwd: string };
      expect(seen.argv).toEqual(['-c', 'conf', '-l', 'info']);
      expect(seen.env).toBe('1');
      expect(seen.cwd).toBe(process.cwd());
      if (existsSync(`/proc/${pid}/stat`)) {
        // own session: the daemon is its session leader (setsid), detached from our terminal
        const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
          .replace(/^.*\) /, '')
          .split(' ');
        expect(Number(fields[3])).toBe(pid);
      }
    } finally {
      delete process.env.INFO_FILE;
      if (pid > 0) process.kill(pid, 'SIGKILL');
    }
  });

  it('isDaemonized reads the marker variable', () => {
    expect(isDaemonized({ [DAEMONIZED_ENV]: '1' })).toBe(true);
    expect(isDaemonized({})).toBe(false);
  });

  it('fails with SALT_ERR_PROCESS_DAEMONIZE when the command cannot be spawned', async () => {
    await expect(daemonize([join(dir, 'no-such-binary')])).rejects.toMatchObject({
      code: 'SALT_ERR_PROCESS_DAEMONIZE',
    });
    await expect(daemonize([])).rejects.toMatchObject({ code: 'SALT_ERR_PROCESS_DAEMONIZE' });
  });
});
