import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { beaconCtx } from '../../test/support/beacon-ctx.js';
import sh, { execveEvents } from './sh.js';

const dir = mkdtempSync(join(tmpdir(), 'tsalt-sh-beacon-'));

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
    if (!('beacon' in sh)) throw new Error('strace is missing here: install it (.ci/run does)');
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
    } finally {
      shell.kill();
    }
  }, 240_000);
});
