import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isProcessAlive, readPidfile, removePidfile, writePidfile } from './pidfile.js';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tsalt-pid-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A pid that is certainly not running: a child that has already exited and been reaped. */
async function deadPid(): Promise<number> {
  const c = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  await new Promise((r) => c.once('exit', r));
  return c.pid!;
}

describe('pidfile', () => {
  it('writes our pid (creating the directory), reads it back, and removes it', async () => {
    const path = join(dir, 'run', 'deep', 'salt-master.pid');
    await writePidfile(path);
    expect(await readFile(path, 'utf8')).toBe(`${process.pid}\n`);
    expect(await readPidfile(path)).toBe(process.pid);
    await writePidfile(path); // naming ourselves is fine
    expect(await removePidfile(path)).toBe(true);
    expect(await readPidfile(path)).toBeUndefined();
    expect(await removePidfile(path)).toBe(false);
  });

  it('refuses a pidfile naming another live process', async () => {
    const path = join(dir, 'live.pid');
    const other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    try {
      await writeFile(path, `${other.pid}\n`);
      await expect(writePidfile(path)).rejects.toMatchObject({
        code: 'SALT_ERR_PROCESS_RUNNING',
        message: `another daemon is running with pid ${other.pid} (pidfile ${path})`,
      });
      expect(await readPidfile(path)).toBe(other.pid);
      // and does not remove someone else's pidfile
      expect(await removePidfile(path)).toBe(false);
      expect(await readPidfile(path)).toBe(other.pid);
    } finally {
      other.kill('SIGKILL');
    }
  });

  it('overwrites a stale or garbled pidfile', async () => {
    const path = join(dir, 'stale.pid');
    const dead = await deadPid();
    expect(isProcessAlive(dead)).toBe(false);
    await writeFile(path, `${dead}\n`);
    await writePidfile(path);
    expect(await readPidfile(path)).toBe(process.pid);

    await writeFile(path, 'not a pid');
    expect(await readPidfile(path)).toBeUndefined();
    await writePidfile(path);
    expect(await readPidfile(path)).toBe(process.pid);
  });

  it('isProcessAlive rejects nonsense pids', () => {
    expect(isProcessAlive(process.pid)).toBe(true);
    expect(isProcessAlive(1)).toBe(true); // alive even when it belongs to another user (EPERM)
    expect(isProcessAlive(0)).toBe(false);
    expect(isProcessAlive(-1)).toBe(false);
    expect(isProcessAlive(1.5)).toBe(false);
  });

  it('reports an unusable pidfile directory as SALT_ERR_PROCESS_DIR', async () => {
    const file = join(dir, 'plain-file');
    await writeFile(file, 'x');
    await expect(writePidfile(join(file, 'x.pid'))).rejects.toMatchObject({ code: 'SALT_ERR_PROCESS_DIR' });
  });
});
