import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { beaconCtx } from './_test-ctx.js';
import log from './log.js';

describe('log beacon', () => {
  const dir = mkdtempSync(join(tmpdir(), 'log-beacon-'));
  const file = join(dir, 'app.log');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('requires file', () => {
    expect(log.validate?.({ tags: {} })).toBe('Configuration for log beacon must contain file option.');
    expect(log.validate?.({ file })).toBe(true);
  });

  it('notes the end on the first run, then fires the new lines each regex matches from their start', async () => {
    writeFileSync(file, 'ERROR before the beacon\n');
    const ctx = beaconCtx();
    const config = { file, tags: { err: { regex: 'ERROR.*' }, bad: { regex: '(' }, none: {} } };
    expect(await log.beacon(ctx, config)).toEqual([]);
    appendFileSync(file, 'ERROR one\nfine\nwarn ERROR\n');
    expect(await log.beacon(ctx, config)).toEqual([
      { tag: 'bad', match: 'no', raw: '', error: 'bad regex' },
      { tag: 'err', match: 'yes', raw: 'ERROR one', error: '' },
    ]);
    expect(await log.beacon(ctx, { file, tags: { err: { regex: 'ERROR' } } })).toEqual([]);
  });

  it('a missing file fails the run', () => {
    expect(() => log.beacon(beaconCtx(), { file: join(dir, 'nope') })).toThrow(/ENOENT/);
  });
});
