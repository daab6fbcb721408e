import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dumpStore } from './_data-store.js';
import { fakeCtx, invoke } from './_fake-ctx.js';
import match from './match.js';

const kw = (o: Record<string, unknown>) => ({ __kwarg__: true, ...o });
const dir = mkdtempSync(join(tmpdir(), 'tsalt-t-match-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ctx = fakeCtx({
  id: 'cmp1',
  opts: { id: 'cmp1', cachedir: dir, pillar: { role: 'web', nested: { a: 'b' } } },
  grains: { kernel: 'Linux', ipv4: ['127.0.0.1', '10.1.2.3'], roles: ['db', 'cache'] },
});

async function call(fun: string, arg: unknown[] = []): Promise<unknown> {
  return (await invoke(match, fun, arg, ctx)).value;
}

describe('match', () => {
  it('matches each target type against this minion (answers of Salt 3006 for the same minion)', async () => {
    expect(await call('glob', ['cmp*'])).toBe(true);
    expect(await call('glob', ['web*'])).toBe(false);
    expect(await call('glob', ['other', kw({ minion_id: 'other' })])).toBe(true);
    expect(await call('pcre', ['cmp\\d'])).toBe(true);
    expect(await call('list', ['a,cmp1,b'])).toBe(true);
    expect(await call('list', ['a,b'])).toBe(false);
    expect(await call('grain', ['kernel:Linux'])).toBe(true);
    expect(await call('grain', ['kernel:Win*'])).toBe(false);
    expect(await call('grain', ['roles:db'])).toBe(true);
    expect(await call('grain_pcre', ['kernel:Lin.x'])).toBe(true);
    expect(await call('pillar', ['role:web'])).toBe(true);
    expect(await call('pillar', ['nested|a|b', kw({ delimiter: '|' })])).toBe(true);
    expect(await call('compound', ['G@kernel:Linux and cmp*'])).toBe(true);
    expect(await call('compound', ['G@kernel:Linux and not cmp*'])).toBe(false);
    expect(await call('compound', ['I@role:web'])).toBe(true);
    expect(await call('ipcidr', ['127.0.0.0/8'])).toBe(true);
    expect(await call('ipcidr', ['10.255.255.0/24'])).toBe(false);
    expect(await call('compound', ['and and'])).toBe(false);
  });

  it('data matches the minion datastore', async () => {
    dumpStore(ctx, { x: '1', l: ['Ab', 'c'], d: { k: 1 } });
    expect(await call('data', ['x:1'])).toBe(true);
    expect(await call('data', ['l:ab'])).toBe(true);
    expect(await call('data', ['d:k'])).toBe(true);
    expect(await call('data', ['d:z'])).toBe(false);
    expect(await call('data', ['nope:1'])).toBe(false);
  });

  it('filter_by, search_by and ifelse', async () => {
    expect(await call('filter_by', [{ 'cmp*': 1, default: 2 }])).toBe(1);
    expect(await call('filter_by', [{ 'web*': 1, default: 2 }])).toBe(2);
    expect(await call('filter_by', [{ 'web*': 1 }])).toBe(null);
    expect(await call('filter_by', [{ 'web*': 1 }, kw({ minion_id: 'web3' })])).toBe(1);
    expect(await call('filter_by', [{ 'cmp*': { a: 1 } }, kw({ merge: { b: 2 } })])).toEqual({ a: 1, b: 2 });
    expect(await call('search_by', [{ a: ['cmp*'], b: ['web*'], c: ['x', 'cmp1'] }])).toEqual(['a', 'c']);
    expect(await call('search_by', [{ b: ['web*'] }])).toBe(null);
    expect(await call('ifelse', ['web*', 'W', 'cmp*', 'C', 'none'])).toBe('C');
    expect(await call('ifelse', [false, 'W', 'none'])).toBe('none');
    await expect(call('ifelse', ['a', 'b'])).rejects.toThrow('odd number of arguments');
  });
});
