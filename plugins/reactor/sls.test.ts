import { describe, expect, it } from 'vitest';
import { checkReaction, reactionsFromHigh } from './sls.js';

const src = '/srv/reactor/x.sls';

describe('reaction files in Salt 3006 form', () => {
  it('local with args (the 3006 form): keywords, tgt_type, ret', () => {
    const [r] = reactionsFromHigh(
      {
        highstate_run: {
          'local.state.apply': [
            { tgt: 'web*' },
            { tgt_type: 'glob' },
            { ret: 'syslog' },
            { args: [{ mods: 'nginx' }, { test: true }] },
          ],
        },
      },
      src,
    );
    expect(r).toEqual({
      id: 'highstate_run',
      source: src,
      kind: 'local',
      fun: 'state.apply',
      tgt: 'web*',
      tgtType: 'glob',
      ret: 'syslog',
      arg: [],
      kwarg: { mods: 'nginx', test: true },
    });
  });

  it('cmd. is local; legacy arg/kwarg and expr_form', () => {
    const [r] = reactionsFromHigh(
      {
        clean: {
          'cmd.cmd.run': [{ tgt: 'G@os:Linux' }, { expr_form: 'compound' }, { arg: ['rm -rf /tmp/x'] }],
        },
      },
      src,
    );
    expect(r).toMatchObject({
      kind: 'local',
      fun: 'cmd.run',
      tgtType: 'compound',
      arg: ['rm -rf /tmp/x'],
      kwarg: {},
    });
  });

  it('runner and wheel: args, or the legacy form where other keys are keywords', () => {
    const rs = reactionsFromHigh(
      {
        spin: { 'runner.cloud.profile': [{ prof: 'centos' }, { instances: ['web11'] }] },
        accept: { 'wheel.key.accept': [{ args: { match: 'm1' } }] },
        legacy: { 'wheel.key.delete': [{ match: 'm2' }] },
      },
      src,
    );
    expect(rs.map((r) => [r.kind, r.fun, r.arg, r.kwarg])).toEqual([
      ['runner', 'cloud.profile', [], { prof: 'centos', instances: ['web11'] }],
      ['wheel', 'key.accept', [], { match: 'm1' }],
      ['wheel', 'key.delete', [], { match: 'm2' }],
    ]);
  });

  it('the function may be given as a string item under the kind', () => {
    const [r] = reactionsFromHigh({ x: { local: ['test.ping', { tgt: '*' }] } }, src);
    expect(r).toMatchObject({ kind: 'local', fun: 'test.ping', tgt: '*' });
  });

  it('caller: a plain list of args is positional (legacy)', () => {
    const [r] = reactionsFromHigh({ x: { 'caller.file.touch': [{ args: ['/tmp/foo'] }] } }, src);
    expect(r).toMatchObject({ kind: 'caller', arg: ['/tmp/foo'], kwarg: {} });
  });

  it('errors: unknown kind, bad function name, missing tgt, bad args, bad shapes', () => {
    expect(() => reactionsFromHigh({ x: { 'shell.run': [{ tgt: '*' }] } }, src)).toThrow(
      /unknown reaction kind 'shell'/,
    );
    expect(() => reactionsFromHigh({ x: { 'local.ping': [{ tgt: '*' }] } }, src)).toThrow(
      /not a function name/,
    );
    expect(() => reactionsFromHigh({ x: { 'local.test.ping': [] } }, src)).toThrow(/needs 'tgt'/);
    expect(() =>
      reactionsFromHigh({ x: { 'local.test.ping': [{ tgt: '*' }, { args: ['a', 'b'] }] } }, src),
    ).toThrow(/incorrect argument format/);
    expect(() => reactionsFromHigh({ x: 'local.test.ping' }, src)).toThrow(/not a mapping/);
    expect(() => reactionsFromHigh({ x: { 'local.test.ping': { tgt: '*' } } }, src)).toThrow(
      /followed by a list/,
    );
    expect(() => reactionsFromHigh({ include: ['a'] }, src)).toThrow(/not supported/);
    expect(() => reactionsFromHigh({ x: { 'constructor.a.b': [] } }, src)).toThrow(/unknown reaction kind/);
  });
});

describe('TypeScript reactions', () => {
  it('are checked like file reactions', () => {
    expect(
      checkReaction({ kind: 'local', fun: 'test.ping', tgt: 'm1', tgtType: 'list' }, 'r[0]', 'ts:r'),
    ).toMatchObject({
      kind: 'local',
      tgtType: 'list',
      arg: [],
      kwarg: {},
    });
    expect(
      checkReaction({ kind: 'runner', fun: 'test.arg', arg: [1], kwarg: { a: 1 } }, 'r[0]', 'ts:r'),
    ).toMatchObject({
      kind: 'runner',
      arg: [1],
      kwarg: { a: 1 },
    });
    expect(() => checkReaction('test.ping', 'r[0]', 'ts:r')).toThrow(/did not return a reaction object/);
    expect(() => checkReaction({ kind: 'nope', fun: 'a.b' }, 'r[0]', 'ts:r')).toThrow(
      /unknown reaction kind/,
    );
  });
});
