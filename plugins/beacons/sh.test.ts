import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { beaconCtx } from '../../test/support/beacon-ctx.js';
import sh, { execveEvents } from './sh.js';

const dir = mkdtempSync(join(tmpdir(), 'tsalt-sh-beacon-'));

/** The pids of the strace processes attached to `pid`, from /proc. */
function straceOf(pid: number | undefined): string[] {
  return readdirSync('/proc').filter((p) => {
    if (!/^\d+$/.test(p)) return false;
    try {
      const argv = readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0');
      return argv[0] === 'strace' && argv.includes(String(pid));
    } catch {
      return false;
    }
  });
}

describe('sh beacon', () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("reads strace's execve lines as Salt does", () => {
    const err = [
      'strace: Process 42 attached',
      '[pid 43] execve("/usr/bin/ls", ["ls", "-l", "/tmp"], 0x55d0 /* 9 vars */) = 0',
      '+++ exited with 0 +++',
    ].join('\n');
    expect(execveEvents(err, '42', 'root')).toEqual([
      { args: ['ls', '-l', '/tmp'], tag: '42', cmd: '/usr/bin/ls', user: 'root' },
    ]);
  });

  it('traces a running shell and fires the commands it executes', async () => {
    if (sh.available?.() !== true) throw new Error('strace is missing here: install it (.ci/run does)');
    const shell = spawn('bash', [], { stdio: ['pipe', 'ignore', 'ignore'] });
    try {
      const ctx = beaconCtx(join(dir, 'salt'));
      expect(await sh.beacon(ctx, {})).toEqual([]);
      await new Promise((r) => setTimeout(r, 2_000)); // strace attaching
      shell.stdin.write('/bin/true beacon-probe\n');
      let events: Record<string, unknown>[] = [];
      for (let i = 0; i < 20 && events.length === 0; i++) {
        await new Promise((r) => setTimeout(r, 500));
        events = (await sh.beacon(ctx, {})).filter((e) => e.tag === String(shell.pid));
      }
      expect(events).toContainEqual({
        args: ['/bin/true', 'beacon-probe'],
        tag: String(shell.pid),
        cmd: '/bin/true',
        user: 'root',
      });
      // close ends the straces the beacon attached
      expect(straceOf(shell.pid)).not.toEqual([]);
      sh.close?.(ctx.state);
      for (let i = 0; i < 20 && straceOf(shell.pid).length > 0; i++)
        await new Promise((r) => setTimeout(r, 250));
      expect(straceOf(shell.pid)).toEqual([]);
      expect(ctx.state.has('vt')).toBe(false);
    } finally {
      shell.kill();
    }
  }, 240_000);
});
