import { describe, expect, it } from 'vitest';
import { fakeCtx, invoke } from './_fake-ctx.js';
import { configuredMineFunctions, parseMineFunction } from './_mine-functions.js';
import mine from './mine.js';

describe("mine_functions entries (Salt's parse_function_definition)", () => {
  it('a list gives arguments, and keyword mappings; mine_function names the function', () => {
    expect(parseMineFunction('network.ip_addrs', ['eth0'])).toEqual({
      alias: 'network.ip_addrs',
      fun: 'network.ip_addrs',
      named: false,
      args: ['eth0'],
      kwargs: {},
    });
    expect(
      parseMineFunction('web_ips', [{ mine_function: 'network.ip_addrs' }, 'eth0', { cidr: '10.0.0.0/8' }]),
    ).toEqual({
      alias: 'web_ips',
      fun: 'network.ip_addrs',
      named: true,
      args: ['eth0'],
      kwargs: { cidr: '10.0.0.0/8' },
    });
  });

  it('a mapping is keywords; allow_tgt and allow_tgt_type are the ACL, not arguments', () => {
    expect(
      parseMineFunction('x', { mine_function: 'test.arg', a: 1, allow_tgt: 'web*', allow_tgt_type: 'glob' }),
    ).toEqual({
      alias: 'x',
      fun: 'test.arg',
      named: true,
      args: [],
      kwargs: { a: 1 },
      allowTgt: 'web*',
      allowTgtType: 'glob',
    });
    expect(parseMineFunction('test.ping', null)).toEqual({
      alias: 'test.ping',
      fun: 'test.ping',
      named: false,
      args: [],
      kwargs: {},
    });
  });
});

describe('configured mine_functions (config.merge)', () => {
  it('the minion config wins over the pillar master key over the pillar', () => {
    const ctx = fakeCtx({
      opts: {
        extra: { mine_functions: { a: ['from-config'] } },
        pillar: { mine_functions: { a: ['from-pillar'], b: [] }, master: { mine_functions: { c: [] } } },
      },
    });
    expect(configuredMineFunctions(ctx)).toEqual({ a: ['from-config'], b: [], c: [] });
    expect(configuredMineFunctions(fakeCtx())).toEqual({});
  });
});

describe('mine module without a master', () => {
  it('update with nothing configured returns None; get without a link is {}', async () => {
    expect((await invoke(mine, 'update')).value).toBe(null);
    expect((await invoke(mine, 'valid')).value).toBe(null);
    expect((await invoke(mine, 'get', ['*', 'x'])).value).toEqual({});
  });

  it('send of a function that fails is False and logs why', async () => {
    const ctx = fakeCtx();
    expect((await invoke(mine, 'send', ['nope.nope'], ctx)).value).toBe(false);
    const lines = (ctx.log as unknown as { lines: unknown[][] }).lines;
    expect(
      lines.some(
        ([level, , msg]) => level === 'error' && msg === 'Function nope.nope in mine.send failed to execute',
      ),
    ).toBe(true);
  });
});
