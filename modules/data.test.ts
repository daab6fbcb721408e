import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fakeCtx, invoke } from './_fake-ctx.js';
import data from './data.js';

const kw = (o: Record<string, unknown>) => ({ __kwarg__: true, ...o });
const dir = mkdtempSync(join(tmpdir(), 'tsalt-t-data-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const ctx = fakeCtx({ opts: { cachedir: dir } });
const call = async (fun: string, arg: unknown[] = []) => (await invoke(data, fun, arg, ctx)).value;

describe('data', () => {
  it('keeps a msgpack store in <cachedir>/datastore (the sequence run against Salt 3006)', async () => {
    expect(await call('clear')).toBe(true);
    expect(await call('items')).toEqual({});
    expect(await call('update', ['k1', 'v1'])).toBe(true);
    expect(await call('update', ['k2', [1, 2]])).toBe(true);
    expect(await call('get', ['k1'])).toBe('v1');
    expect(await call('get', ['nope'])).toBe(null);
    expect(await call('get', [['k1', 'nope']])).toEqual(['v1']);
    expect(await call('get', [['k1', 'nope'], kw({ default: 'd' })])).toEqual(['v1', 'd']);
    expect(await call('keys')).toEqual(['k1', 'k2']);
    expect(await call('values')).toEqual(['v1', [1, 2]]);
    expect(await call('has_key', ['k2'])).toBe(true);
    expect(await call('cas', ['k1', 'v2', 'wrong'])).toBe(false);
    expect(await call('cas', ['k1', 'v2', 'v1'])).toBe(true);
    expect(await call('pop', ['k2'])).toEqual([1, 2]);
    expect(await call('pop', ['k2', 'gone'])).toBe('gone');
    // msgpack map {k1: v2} with use_bin_type (str 8 allowed): 81 a2 6b 31 a2 76 32
    expect(readFileSync(join(dir, 'datastore')).toString('hex')).toBe('81a26b31a27632');
    expect(await call('dump', ["{'x': 1, 'y': True}"])).toBe(true);
    expect(await call('load')).toEqual({ x: 1, y: true });
    expect(await call('dump', ['[1]'])).toBe(false);
  });
});
