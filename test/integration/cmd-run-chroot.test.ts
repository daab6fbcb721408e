// cmd.run_chroot through a real masterless salt-call, in a throwaway chroot (dash and its two
// libraries copied in): dev, proc and sys are mounted for the run and unmounted after it
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localCaller } from '../support/local-call.js';

const FILES = [
  ['/bin/dash', 'bin/sh'],
  ['/lib/x86_64-linux-gnu/libc.so.6', 'lib/x86_64-linux-gnu/libc.so.6'],
  ['/lib64/ld-linux-x86-64.so.2', 'lib64/ld-linux-x86-64.so.2'],
] as const;

const root = mkdtempSync(join(tmpdir(), 'tsalt-chroot-'));
const jail = join(root, 'jail');
const canRun = process.getuid?.() === 0 && FILES.every(([from]) => existsSync(from));

describe.skipIf(!canRun)('cmd.run_chroot', () => {
  const call = localCaller(root, 'chr1');

  beforeAll(() => {
    for (const d of ['bin', 'lib/x86_64-linux-gnu', 'lib64', 'dev', 'proc', 'sys', 'srv', 'pillar'])
      mkdirSync(join(d === 'srv' || d === 'pillar' ? root : jail, d), { recursive: true });
    for (const [from, to] of FILES) copyFileSync(from, join(jail, to));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const mounted = () => readFileSync('/proc/mounts', 'utf8').includes(jail);

  it('runs the command inside the chroot with proc mounted, then unmounts', async () => {
    const r = await call(
      'cmd.run_chroot',
      jail,
      'echo hi; test -e /proc/self && echo proc; test -e /etc/shells || echo no-etc',
    );
    expect(r.code).toBe(0);
    expect(r.local).toMatchObject({ retcode: 0, stdout: 'hi\nproc\nno-etc', stderr: '' });
    expect(mounted()).toBe(false);
  });

  it("answers the command's retcode, and blanks the output with hide_output", async () => {
    const r = await call('cmd.run_chroot', jail, 'echo out; exit 3');
    expect(r.code).toBe(0); // as Salt's: the job itself succeeded
    expect(r.local).toMatchObject({ retcode: 3, stdout: 'out' });
    const h = await call('cmd.run_chroot', jail, 'echo secret', 'hide_output=True');
    expect(h.local).toMatchObject({ retcode: 0, stdout: '', stderr: '' });
    expect(mounted()).toBe(false);
  });
});
