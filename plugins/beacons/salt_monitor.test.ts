import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { beaconCtx } from '../../test/support/beacon-ctx.js';
import monitor from './salt_monitor.js';

const dir = mkdtempSync(join(tmpdir(), 'tsalt-salt-monitor-beacon-'));

describe('salt_monitor beacon', () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("validates the entries' args and kwargs as Salt's", () => {
    const v = (salt_fun: unknown) => monitor.validate?.({ salt_fun });
    expect(v(['test.ping', { 'test.echo': { args: ['hi'] } }])).toBe(true);
    expect(v([{ 'test.echo': { args: 'hi' } }])).toBe('args key for fun test.echo must be list');
    expect(v([{ 'test.echo': { kwargs: { a: 1 } } }])).toBe(
      'kwargs key for fun test.echo must be list of key value pairs',
    );
    expect(v([{ 'test.echo': { kwargs: ['a'] } }])).toBe('a is not a key / value pair');
    expect(v([{ 'test.echo': { other: 1 } }])).toBe('key other not allowed under fun test.echo');
  });

  it('fires the truthy returns with their args and kwargs; a single function fires every run', async () => {
    const ctx = beaconCtx(join(dir, 'salt'));
    expect(
      await monitor.beacon(ctx, {
        salt_fun: [
          'test.false',
          'test.true',
          { 'test.echo': { args: ['hi there'] } },
          { 'test.arg': { args: ['a'], kwargs: [{ k: 'v' }, { n: 2 }] } },
        ],
      }),
    ).toEqual([
      { salt_fun: 'test.true', ret: true },
      { salt_fun: 'test.echo', ret: 'hi there', args: ['hi there'] },
      {
        salt_fun: 'test.arg',
        // salt-call adds its __pub_ keys to what test.arg echoes
        ret: { args: ['a'], kwargs: expect.objectContaining({ k: 'v', n: 2 }) },
        args: ['a'],
        kwargs: { k: 'v', n: 2 },
      },
    ]);
    const single = beaconCtx(join(dir, 'salt'));
    expect(await monitor.beacon(single, { salt_fun: 'test.false' })).toEqual([
      { salt_fun: 'test.false', ret: false },
    ]);
  }, 240_000);

  it("a function the minion lacks keeps the beacon idle, logging Salt's reason", async () => {
    const ctx = beaconCtx(join(dir, 'salt'));
    expect(await monitor.beacon(ctx, { salt_fun: ['test.true', 'no_such.fn'] })).toEqual([]);
    expect(await monitor.beacon(ctx, { salt_fun: ['test.true', 'no_such.fn'] })).toEqual([]);
    expect(ctx.log.lines).toContainEqual([
      'error',
      'Beacon salt_monitor configuration invalid, not running.\nno_such.fn not in __salt__',
      undefined,
    ]);
    expect(ctx.calls).toEqual(['sys.list_functions']);
  }, 240_000);
});
