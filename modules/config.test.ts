import { describe, expect, it } from 'vitest';
import { fakeCtx, invoke } from './_fake-ctx.js';
import config from './config.js';

const kw = (o: Record<string, unknown>) => ({ __kwarg__: true, ...o });

const ctx = fakeCtx({
  opts: {
    id: 'm1',
    my_opt: { a: 1, b: ['x', 'y'] },
    'mongo.db': 'mine',
    shared: { from: 'opts' },
    pillar: { shared: { pillar: 1 }, pil: { deep: 'p' }, master: { 'mongo.port': 1, only_master: 'm' } },
  },
  grains: { os_family: 'Debian', shared: { grain: 1 } },
});

async function call(fun: string, arg: unknown[] = []): Promise<unknown> {
  return (await invoke(config, fun, arg, ctx)).value;
}

describe('config', () => {
  it('get searches opts, grains, pillar, master, defaults in order (values as Salt 3006 returned them)', async () => {
    expect(await call('get', ['id'])).toBe('m1');
    expect(await call('get', ['my_opt:b:1'])).toBe('y');
    expect(await call('get', ['my_opt|a', kw({ delimiter: '|' })])).toBe(1);
    expect(await call('get', ['nope', kw({ default: 'fallback' })])).toBe('fallback');
    expect(await call('get', ['nope'])).toBe('');
    expect(await call('get', ['mongo.db'])).toBe('mine');
    expect(await call('get', ['redis.port'])).toBe(6379);
    expect(await call('get', ['virt:tunnel'])).toBe(false);
    expect(await call('get', ['os_family'])).toBe('Debian');
    expect(await call('get', ['pil:deep'])).toBe('p');
    expect(await call('get', ['only_master'])).toBe('m');
    expect(await call('get', ['shared'])).toEqual({ from: 'opts' });
    expect(await call('get', ['shared', kw({ omit_opts: true })])).toEqual({ grain: 1 });
  });

  it('get with merge merges the stores before searching', async () => {
    expect(await call('get', ['shared', kw({ merge: 'recurse' })])).toEqual({
      from: 'opts',
      grain: 1,
      pillar: 1,
    });
    expect(await call('get', ['shared', kw({ merge: 'overwrite' })])).toEqual({ from: 'opts' });
  });

  it('option reads top-level keys only, with defaults and wildcards', async () => {
    expect(await call('option', ['mongo.db'])).toBe('mine');
    expect(await call('option', ['redis.host'])).toBe('salt');
    expect(await call('option', ['my_opt:a'])).toBe('');
    expect(await call('option', ['redis.*', kw({ omit_all: true, wildcard: true })])).toEqual({
      'redis.db': '0',
      'redis.host': 'salt',
      'redis.port': 6379,
    });
    expect(await call('option', ['zzz*', kw({ wildcard: true })])).toEqual({});
  });

  it('merge, dot_vals, valid_fileproto', async () => {
    expect(await call('merge', ['shared'])).toEqual({ from: 'opts', pillar: 1 });
    expect(await call('merge', ['nope'])).toBe('');
    expect(await call('merge', ['mongo.port'])).toBe(1);
    expect(await call('dot_vals', ['mongo'])).toEqual({ 'mongo.port': 1, 'mongo.db': 'mine' });
    expect(await call('valid_fileproto', ['salt://x/y'])).toBe(true);
    expect(await call('valid_fileproto', ['https://x/y'])).toBe(true);
    expect(await call('valid_fileproto', ['/etc/hosts'])).toBe(false);
  });

  it('manage_mode normalizes a mode as Salt 3006.18 does', async () => {
    const cases: [unknown, unknown][] = [
      ['0755', '0755'],
      [755, '0755'],
      ['0o644', '0644'],
      ['', '0000'],
      [null, null],
      [600, '0600'],
      ['1777', '1777'],
      ['"0644"', '0644'],
      [true, 'True'],
    ];
    for (const [mode, want] of cases) expect(await call('manage_mode', [mode])).toBe(want);
  });
});
