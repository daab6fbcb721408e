import { describe, expect, it } from 'vitest';
import { SaltError } from '../kernel/errors.js';
import { getOutputter, listOutputters, registerOutputter, resolveOutputter } from './registry.js';
import { defineOutputter } from './types.js';

describe('outputter registry', () => {
  it('has the built-in outputters', () => {
    expect(listOutputters()).toEqual(
      expect.arrayContaining([
        'json',
        'key',
        'nested',
        'newline_values_only',
        'pprint',
        'quiet',
        'raw',
        'txt',
        'yaml',
      ]),
    );
    expect(getOutputter('json')?.render({ m1: true }, { color: false })).toBe('{\n    "m1": true\n}');
    expect(getOutputter('quiet')?.render({ m1: true }, { color: false })).toBe('');
    expect(getOutputter('json_out')).toBeUndefined();
  });

  it('resolves --out names as the salt CLI does', () => {
    expect(resolveOutputter('text').name).toBe('txt');
    expect(resolveOutputter(undefined).name).toBe('nested');
    expect(resolveOutputter('').name).toBe('nested');
    expect(resolveOutputter('no_such').name).toBe('nested');
  });

  it('takes more outputters and refuses a name twice', () => {
    const count = defineOutputter({
      name: 'test-count',
      render: (data) => String(Object.keys(data as object).length),
    });
    registerOutputter(count);
    expect(getOutputter('test-count')?.render({ a: 1, b: 2 }, { color: false })).toBe('2');
    expect(() => registerOutputter(count)).toThrow(SaltError);
    try {
      registerOutputter(count);
    } catch (err) {
      expect((err as SaltError).code).toBe('SALT_ERR_REGISTRY_DUPLICATE');
    }
  });
});
