import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { beaconCtx } from './_test-ctx.js';
import ps from './ps.js';

describe('ps beacon', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ps-beacon-'));
  const name = `bo21sleep${process.pid % 1000}`;
  let child: ChildProcess | undefined;
  afterAll(() => {
    child?.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it('checks processes is a mapping', () => {
    expect(ps.validate?.({})).toBe('Configuration for ps beacon requires processes.');
    expect(ps.validate?.({ processes: ['x'] })).toBe('Processes for ps beacon must be a dictionary.');
  });

  it('fires Running while a process of that name runs and Stopped once it is gone', async () => {
    const config = { processes: { [name]: 'running', [`${name}x`]: 'stopped', [`${name}y`]: 'other' } };
    expect(await ps.beacon(beaconCtx(), config)).toEqual([
      { [`${name}x`]: 'Stopped' },
      { [`${name}y`]: false },
    ]);
    copyFileSync('/bin/sleep', join(dir, name));
    chmodSync(join(dir, name), 0o755);
    child = spawn(join(dir, name), ['30'], { stdio: 'ignore' });
    await new Promise((r) => setTimeout(r, 500));
    expect(await ps.beacon(beaconCtx(), { processes: { [name]: 'running' } })).toEqual([
      { [name]: 'Running' },
    ]);
    child.kill();
    await new Promise((r) => child?.once('exit', r));
    expect(await ps.beacon(beaconCtx(), { processes: { [name]: 'stopped' } })).toEqual([
      { [name]: 'Stopped' },
    ]);
  });
});
