import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type DeletedFile, deletedFiles, validDeletedFile } from './_restartcheck-scan.js';

describe('validDeletedFile', () => {
  it("takes deleted and replaced files outside Salt's ignored folders", () => {
    expect(validDeletedFile('/usr/lib/x/libfoo.so.1 (deleted)')).toBe(true);
    expect(validDeletedFile('/usr/lib/x/libfoo.so.1 (path inode=1234)')).toBe(true);
    expect(validDeletedFile('/usr/lib/x/libfoo.so.1')).toBe(false);
    expect(validDeletedFile('/tmp/x (deleted)')).toBe(false);
    expect(validDeletedFile('/home/u/x (deleted)')).toBe(false);
    expect(validDeletedFile('/opt/x (deleted)')).toBe(false); // '^/[aio]'
  });
});

// A real process running a binary that is then deleted, as after an upgrade. /tmp is one of the
// folders Salt ignores, so the copy lives under /var/lib (root only).
describe.skipIf(process.getuid?.() !== 0)('deletedFiles', () => {
  let dir: string;
  let child: ChildProcess | undefined;
  afterAll(() => {
    child?.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('finds the deleted executable a process maps, by its name (completed past 15 characters, as psutil) and pid', async () => {
    dir = mkdtempSync('/var/lib/tsalt-t-rc-');
    const bin = join(dir, 'tsalt-t-sleeper');
    copyFileSync('/bin/sleep', bin);
    child = spawn(bin, ['30'], { stdio: 'ignore' });
    await new Promise((r) => child?.once('spawn', r));
    rmSync(bin);
    const found: Array<DeletedFile | false> = [];
    for await (const d of deletedFiles(() => {}, [child.pid as number])) found.push(d);
    expect(found).toContainEqual({ name: 'tsalt-t-sleeper', pid: child.pid, path: bin });
  });
});
