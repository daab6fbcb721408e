import { execSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { beaconCtx } from './_test-ctx.js';
import watchdog, { closeWatchdog } from './watchdog.js';

describe('watchdog beacon (inotifywait read as the watchdog observer)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'watchdog-beacon-'));
  const ctx = beaconCtx();
  afterAll(() => {
    closeWatchdog(ctx.state);
    rmSync(dir, { recursive: true, force: true });
  });

  it("validates with Salt's messages", () => {
    expect(watchdog.validate?.({})).toBe('Configuration for watchdog beacon must include directories.');
    expect(watchdog.validate?.({ directories: ['/etc'] })).toBe(
      'Configuration for watchdog beacon directories must be a dictionary.',
    );
    expect(watchdog.validate?.({ directories: { '/etc': 'x' } })).toBe(
      'Configuration for watchdog beacon directory path must be a dictionary.',
    );
    expect(watchdog.validate?.({ directories: { '/etc': { mask: ['open'] } } })).toBe(
      'Configuration for watchdog beacon contains invalid mask',
    );
  });

  it('fires created/modified/moved/deleted as the observer reports them (as measured on Salt)', async () => {
    expect(await watchdog.beacon(ctx, { directories: { [dir]: {} } })).toEqual([]);
    execSync(`echo hi > ${dir}/a; mkdir ${dir}/d; mv ${dir}/a ${dir}/b; chmod 600 ${dir}/b; rm -r ${dir}/*`);
    await new Promise((r) => setTimeout(r, 1500));
    const ev = (path: string, change: string) => ({ tag: 'watchdog', path, change });
    expect(await watchdog.beacon(ctx, { directories: { [dir]: {} } })).toEqual([
      ev(`${dir}/a`, 'created'),
      ev(dir, 'modified'),
      ev(`${dir}/a`, 'modified'),
      ev(dir, 'modified'),
      ev(`${dir}/d`, 'created'),
      ev(dir, 'modified'),
      ev(`${dir}/a`, 'moved'),
      ev(dir, 'modified'),
      ev(`${dir}/b`, 'modified'),
      ev(`${dir}/b`, 'deleted'),
      ev(dir, 'modified'),
      ev(`${dir}/d`, 'deleted'),
      ev(dir, 'modified'),
    ]);
  });
});
