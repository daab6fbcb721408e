import { describe, expect, it } from 'vitest';
import { SALT_ERR_EXEC_COMMAND, SALT_ERR_INVOCATION, SaltError } from '../kernel/errors.js';
import { pubKwargs } from '../kernel/jobs/args.js';
import { float64, SaltFloat } from '../kernel/serial/index.js';
import { VERSION } from '../kernel/version.js';
import { asPyTuple } from '../outputters/py-tuples.js';
import { fakeCtx, invoke } from './_fake-ctx.js';
import test from './test.js';

const kw = (o: Record<string, unknown>) => ({ __kwarg__: true, ...o });

describe('test module', () => {
  it('is named test and exposes true/false under their Salt names', () => {
    expect(test.name).toBe('test');
    expect(Object.keys(test.functions)).toEqual(
      expect.arrayContaining(['true', 'false', 'ping', 'echo', 'arg']),
    );
  });

  it('ping, true, false, version', async () => {
    expect(await invoke(test, 'ping')).toEqual({ value: true, retcode: 0 });
    expect((await invoke(test, 'true')).value).toBe(true);
    expect((await invoke(test, 'false')).value).toBe(false);
    // the Salt release tsalt follows, as Salt's clients (SaltGUI) and formulas read it
    expect((await invoke(test, 'version')).value).toBe('3006.18');
  });

  it('echo returns its argument, positionally or by keyword', async () => {
    expect((await invoke(test, 'echo', ['hi'])).value).toBe('hi');
    expect((await invoke(test, 'echo', [kw({ text: [1, 2] })])).value).toEqual([1, 2]);
  });

  it('echo with two arguments is an invocation error', async () => {
    await expect(invoke(test, 'echo', ['a', 'b'])).rejects.toMatchObject({
      code: 'SALT_ERR_INVOCATION',
      message: 'echo() takes 1 positional argument but 2 were given',
    });
  });

  it('arg returns args and kwargs, __pub_ data included', async () => {
    const pub = pubKwargs({ jid: '1', fun: 'test.arg' });
    const spec = test.functions.arg!;
    const { bindArgs } = await import('../kernel/jobs/args.js');
    const { bound, extra } = bindArgs(spec, 'test.arg', ['a', 1], { k: 'v', ...pub });
    // args is Python's tuple: marked for the outputters that print a repr (a list on the wire)
    expect(await spec.run(fakeCtx(), bound, extra)).toEqual({
      args: asPyTuple(['a', 1]),
      kwargs: { k: 'v', __pub_jid: '1', __pub_fun: 'test.arg' },
    });
    expect((await invoke(test, 'arg', ['a', 1, kw({ k: 'v' })])).value).toEqual({
      args: asPyTuple(['a', 1]),
      kwargs: { k: 'v' },
    });
  });

  it('arg_clean, arg_type, arg_repr, kwarg', async () => {
    const arg = ['a', 1, 1.5, null, kw({ k: true, __pub_jid: 'x' })];
    expect((await invoke(test, 'arg_clean', arg)).value).toEqual({
      args: ['a', 1, 1.5, null],
      kwargs: { k: true },
    });
    expect((await invoke(test, 'arg_type', ['a', 1, float64(2), [], {}])).value).toEqual({
      args: ["<class 'str'>", "<class 'int'>", "<class 'float'>", "<class 'list'>", "<class 'dict'>"],
      kwargs: {},
    });
    expect((await invoke(test, 'arg_repr', ['a', 1, kw({ k: null })])).value).toEqual({
      args: "('a', 1)",
      kwargs: "{'k': None}",
    });
    expect((await invoke(test, 'arg_repr', ['a'])).value).toEqual({ args: "('a',)", kwargs: '{}' });
    expect((await invoke(test, 'kwarg', [kw({ a: 1 })])).value).toEqual({ a: 1 });
  });

  it('retcode returns True and sets the job retcode (default 42)', async () => {
    expect(await invoke(test, 'retcode')).toEqual({ value: true, retcode: 42 });
    expect(await invoke(test, 'retcode', [3])).toEqual({ value: true, retcode: 3 });
  });

  it("exception raises an unexpected exception, as Salt's `raise Exception(message)`", async () => {
    await expect(invoke(test, 'exception')).rejects.toMatchObject({
      name: 'Exception',
      message: 'Test Exception',
    });
    await expect(invoke(test, 'exception', ['boom'])).rejects.toMatchObject({
      name: 'Exception',
      message: 'boom',
    });
    await expect(invoke(test, 'exception', ['boom'])).rejects.not.toHaveProperty('code');
  });

  it('fib returns [value, seconds]', async () => {
    const { value } = await invoke(test, 'fib', [10]);
    const [n, t] = value as [number, SaltFloat];
    expect(n).toBe(55);
    expect(t).toBeInstanceOf(SaltFloat);
    expect(((await invoke(test, 'fib', ['1'])).value as unknown[])[0]).toBe(1);
    expect(((await invoke(test, 'fib', [90])).value as unknown[])[0]).toBe(2880067194370816120n);
    await expect(invoke(test, 'fib', [-1])).rejects.toMatchObject({
      message: 'Negative number is not allowed!',
    });
    await expect(invoke(test, 'fib', ['x'])).rejects.toBeInstanceOf(SALT_ERR_INVOCATION);
  });

  it('collatz follows Python (floats after the first step)', async () => {
    const { value } = await invoke(test, 'collatz', [6]);
    const [steps] = value as [unknown[]];
    expect(steps.map(Number)).toEqual([6, 3, 10, 5, 16, 8, 4, 2]);
    expect(steps[0]).toBe(6);
    expect(steps[1]).toBeInstanceOf(SaltFloat);
    // 5 * 3 + 1 stays an int in Python; only a halving makes a float
    const [odd] = (await invoke(test, 'collatz', [5])).value as [unknown[]];
    expect(odd.slice(0, 2)).toEqual([5, 16]);
    expect(odd[2]).toBeInstanceOf(SaltFloat);
  });

  it('sleep sleeps and honours ctx.signal', async () => {
    expect((await invoke(test, 'sleep', [0])).value).toBe(true);
    const ac = new AbortController();
    const started = Date.now();
    const pending = invoke(test, 'sleep', [30], fakeCtx({ signal: ac.signal }));
    setTimeout(() => ac.abort(), 50);
    await expect(pending).rejects.toBeInstanceOf(SaltError);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('sleep rejects a signal already aborted with its SaltError reason', async () => {
    const ac = new AbortController();
    const reason = new SALT_ERR_EXEC_COMMAND('killed');
    ac.abort(reason);
    await expect(invoke(test, 'sleep', [5], fakeCtx({ signal: ac.signal }))).rejects.toBe(reason);
  });

  it('rand_sleep with max 0 returns at once', async () => {
    expect((await invoke(test, 'rand_sleep', [kw({ max: 0 })])).value).toBe(true);
  });

  it('random_hash uses the requested or configured hash', async () => {
    expect((await invoke(test, 'random_hash')).value).toMatch(/^[0-9a-f]{64}$/);
    expect((await invoke(test, 'random_hash', [kw({ hash_type: 'md5' })])).value).toMatch(/^[0-9a-f]{32}$/);
    const ctx = fakeCtx({ opts: { hash_type: 'sha512' } });
    expect((await invoke(test, 'random_hash', [100], ctx)).value).toMatch(/^[0-9a-f]{128}$/);
    expect((await invoke(test, 'rand_str', [kw({ hash_type: 'sha3_256' })])).value).toMatch(/^[0-9a-f]{64}$/);
    await expect(invoke(test, 'random_hash', [kw({ hash_type: 'nope' })])).rejects.toBeInstanceOf(
      SALT_ERR_INVOCATION,
    );
  });

  it('versions_report is Salt-shaped text', async () => {
    const text = (await invoke(test, 'versions_report')).value as string;
    const lines = text.split('\n');
    expect(lines[0]).toBe('Salt Version:');
    expect(lines).toContain('Node Version:');
    expect(lines).toContain('System Versions:');
    expect(lines.find((l) => l.trim().startsWith('tsalt:'))).toMatch(new RegExp(`^ +tsalt: ${VERSION}$`));
    const rowWidths = new Set(lines.filter((l) => /^ +\S+: /.test(l)).map((l) => l.indexOf(':')));
    expect(rowWidths.size).toBe(1);
    expect((await invoke(test, 'versions')).value).toBe(text);
    const info = (await invoke(test, 'versions_information')).value as Record<
      string,
      Record<string, unknown>
    >;
    expect(info['Dependency Versions']?.zod).toMatch(/^4\./);
  });

  it('cross_test, conf_test and try go through ctx.call', async () => {
    const calls: unknown[] = [];
    const ctx = fakeCtx({
      call: async (fun, args, kwargs) => {
        calls.push([fun, args, kwargs]);
        if (fun === 'bad.fun') throw new SALT_ERR_EXEC_COMMAND('nope');
        return 'ok';
      },
    });
    expect((await invoke(test, 'cross_test', ['test.echo', ['x']], ctx)).value).toBe('ok');
    expect((await invoke(test, 'conf_test', [], ctx)).value).toBe('ok');
    expect((await invoke(test, 'try', ['m.f', kw({ a: 1, __pub_jid: 'j' })], ctx)).value).toBe('ok');
    expect((await invoke(test, 'try', ['bad.fun'], ctx)).value).toBeNull();
    expect((await invoke(test, 'try', ['bad.fun', kw({ return_try_exception: true })], ctx)).value).toBe(
      'nope',
    );
    expect(calls.slice(0, 3)).toEqual([
      ['test.echo', ['x'], undefined],
      ['config.option', ['test.foo'], undefined],
      ['m.f', [], { a: 1 }],
    ]);
  });

  it('get_opts and outputter', async () => {
    expect((await invoke(test, 'get_opts', [], fakeCtx({ opts: { id: 'x' } }))).value).toEqual({ id: 'x' });
    expect((await invoke(test, 'outputter', [{ a: 1 }])).value).toEqual({ a: 1 });
  });
});

describe('test.provider, test.providers, test.stack', () => {
  const stems: Record<string, string> = { pkg: 'aptpkg', test: 'test' };
  const ctx = fakeCtx({
    functions: {
      list: async () => [],
      modules: async () => Object.keys(stems).sort(),
      get: async () => undefined,
      moduleDoc: async () => undefined,
      explain: async (fun) => `'${fun}' is not available.`,
      provider: async (name) => stems[name],
    },
  });

  it('gives the file a module was loaded from, or an empty string', async () => {
    expect((await invoke(test, 'provider', ['pkg'], ctx)).value).toBe('aptpkg');
    expect((await invoke(test, 'provider', ['nope'], ctx)).value).toBe('');
  });

  it('maps providers to module names', async () => {
    expect((await invoke(test, 'providers', [], ctx)).value).toEqual({ aptpkg: 'pkg', test: 'test' });
  });

  it('returns the current stack as text', async () => {
    const { value } = await invoke(test, 'stack');
    expect(typeof value).toBe('string');
    expect(String(value)).toMatch(/^at /);
    expect(String(value)).toContain('test');
  });
});
