import { describe, expect, it } from 'vitest';
import { fakeCtx, invoke, memoryLogger } from './_fake-ctx.js';
import test from './test.js';

describe('test module probes', () => {
  it('assertion: None when truthy, an AssertionError when not', async () => {
    expect((await invoke(test, 'assertion', [true])).value).toBeNull();
    expect((await invoke(test, 'assertion', ['x'])).value).toBeNull();
    await expect(invoke(test, 'assertion', [false])).rejects.toMatchObject({ name: 'AssertionError' });
    await expect(invoke(test, 'assertion', [0])).rejects.toMatchObject({ name: 'AssertionError' });
  });

  it('raise_exception raises the named exception as salt-call reports it', async () => {
    await expect(
      invoke(test, 'raise_exception', ['TypeError', 'An integer is required']),
    ).rejects.toMatchObject({
      code: 'SALT_ERR_INVOCATION',
      message: 'An integer is required',
    });
    await expect(
      invoke(test, 'raise_exception', ['salt.exceptions.CommandExecutionError', 'Something went wrong']),
    ).rejects.toMatchObject({ code: 'SALT_ERR_EXEC_COMMAND', message: 'Something went wrong' });
    await expect(invoke(test, 'raise_exception', ['ValueError', 'boom'])).rejects.toMatchObject({
      name: 'ValueError',
      message: 'boom',
    });
    await expect(invoke(test, 'raise_exception', ['OSError', 2, 'nofile'])).rejects.toMatchObject({
      name: 'OSError',
      message: "(2, 'nofile')",
    });
  });

  it('raise_exception answers False and logs for a non-exception or an unknown name', async () => {
    const log = memoryLogger();
    const ctx = fakeCtx({ log });
    expect((await invoke(test, 'raise_exception', ['int'], ctx)).value).toBe(false);
    expect((await invoke(test, 'raise_exception', ['Foo'], ctx)).value).toBe(false);
    expect(log.lines.map((l) => l[1])).toEqual(['int is not an exception', 'No such exception: Foo']);
  });

  it('tty says it moved, opts_pkg carries the grains, deprecation_warning is True', async () => {
    expect((await invoke(test, 'tty', ['tty0', 'hi'])).value).toBe(
      'ERROR: This function has been moved to cmd.tty',
    );
    const ctx = fakeCtx({ opts: { id: 'm1', cachedir: '/c' }, grains: { os: 'Debian' } });
    expect((await invoke(test, 'opts_pkg', [], ctx)).value).toEqual({
      id: 'm1',
      cachedir: '/c',
      grains: { os: 'Debian' },
    });
    expect((await invoke(test, 'deprecation_warning')).value).toBe(true);
  });

  it('module_report lists every function, none reachable by attribute (as Salt 3006)', async () => {
    const fns = ['grains.items', 'test.ping'];
    const ctx = fakeCtx({ functions: { ...fakeCtx().functions, list: async () => fns } });
    const r = (await invoke(test, 'module_report', [], ctx)).value as Record<string, string[]>;
    expect(r.functions).toEqual(fns);
    expect(r.missing_attrs).toEqual(fns);
    expect(r.modules).toEqual([]);
  });
});
