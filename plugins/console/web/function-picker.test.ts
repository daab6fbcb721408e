import { describe, expect, it } from 'vitest';
import { formatArgspec, unionFunctions } from './function-picker.js';

describe('the function picker', () => {
  it('writes an argspec as a Python signature, defaults on the last arguments', () => {
    expect(formatArgspec('test.ping', { args: [], defaults: null, varargs: null, kwargs: null })).toBe(
      'test.ping()',
    );
    expect(formatArgspec('test.echo', { args: ['text'], defaults: null, varargs: null, kwargs: null })).toBe(
      'test.echo(text)',
    );
    expect(
      formatArgspec('cmd.run', {
        args: ['cmd', 'cwd', 'shell'],
        defaults: [null, '/bin/sh'],
        varargs: null,
        kwargs: 'kwargs',
      }),
    ).toBe('cmd.run(cmd, cwd=null, shell="/bin/sh", **kwargs)');
    expect(formatArgspec('test.arg', { args: [], varargs: 'args', kwargs: 'kwargs' })).toBe(
      'test.arg(*args, **kwargs)',
    );
    // Salt 3006's own shape for the same functions
    expect(formatArgspec('test.arg', { args: null, defaults: null, varargs: true, kwargs: true })).toBe(
      'test.arg(*args, **kwargs)',
    );
    expect(formatArgspec('test.ping', { args: null, defaults: null, varargs: null, kwargs: null })).toBe(
      'test.ping()',
    );
  });

  it("lists the union of every minion's functions, each with a minion that has it", () => {
    const u = unionFunctions({
      m1: ['test.ping', 'pkg.install'],
      m0: ['test.ping', 'cmd.run'],
      m2: 'Minion did not return',
    });
    expect([...u.keys()]).toEqual(['cmd.run', 'pkg.install', 'test.ping']);
    expect(u.get('test.ping')).toBe('m0');
    expect(u.get('pkg.install')).toBe('m1');
    expect(unionFunctions(undefined).size).toBe(0);
  });
});
