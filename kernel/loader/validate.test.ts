import { describe, expect, it } from 'vitest';
import { SALT_ERR_LOADER_INVALID_UNIT, type SaltError } from '../errors.js';
import type { ModuleDef } from './define.js';
import { isModuleName, readVirtualResult, validateModuleDef } from './validate.js';

const run = () => 1;
const good: ModuleDef = { name: 'test', functions: { ping: { run } } };

function problem(value: unknown): string {
  try {
    validateModuleDef(value, '/x/mod.js');
  } catch (err) {
    expect(err).toBeInstanceOf(SALT_ERR_LOADER_INVALID_UNIT);
    expect((err as SaltError).code).toBe('SALT_ERR_LOADER_INVALID_UNIT');
    return (err as Error).message;
  }
  return 'valid';
}

describe('validateModuleDef', () => {
  it('returns the default export of a well-formed module', () => {
    expect(validateModuleDef({ default: good }, '/x/mod.js')).toBe(good);
    const full = { ...good, doc: 'd', aliases: ['t'], virtual: () => true };
    expect(validateModuleDef({ default: full }, '/x/mod.js')).toBe(full);
  });

  it('names what is wrong', () => {
    expect(problem({})).toBe('/x/mod.js is not a valid unit: no default export');
    expect(problem({ default: 3 })).toContain('not a module definition object');
    expect(problem({ default: { functions: {} } })).toContain('`name`');
    expect(problem({ default: { name: 'a.b', functions: {} } })).toContain('`name`');
    expect(problem({ default: { name: 'a' } })).toContain('`functions` must be an object');
    expect(problem({ default: { name: 'a', functions: [] } })).toContain('`functions` must be an object');
    expect(problem({ default: { name: 'a', functions: { f: run } } })).toContain('function "f"');
    expect(problem({ default: { ...good, aliases: 'x' } })).toContain('`aliases`');
    expect(problem({ default: { ...good, virtual: true } })).toContain('`virtual`');
    expect(problem({ default: { ...good, doc: 1 } })).toContain('`doc`');
  });
});

describe('isModuleName', () => {
  it('accepts plain names only', () => {
    expect(isModuleName('cmd')).toBe(true);
    expect(isModuleName('')).toBe(false);
    expect(isModuleName('a.b')).toBe(false);
    expect(isModuleName('a b')).toBe(false);
    expect(isModuleName(1)).toBe(false);
  });
});

describe('readVirtualResult', () => {
  it('normalizes the answers', () => {
    expect(readVirtualResult(true, good, 'p')).toEqual({ load: true, name: 'test' });
    expect(readVirtualResult({ name: 'pkg' }, good, 'p')).toEqual({ load: true, name: 'pkg' });
    expect(readVirtualResult({ ok: false, reason: 'no' }, good, 'p')).toEqual({ load: false, reason: 'no' });
    expect(readVirtualResult({ ok: false }, good, 'p')).toEqual({ load: false, reason: '' });
    expect(readVirtualResult(false, good, 'p')).toEqual({ load: false, reason: '' });
    expect(readVirtualResult(undefined, good, 'p')).toEqual({ load: false, reason: '' });
  });

  it('rejects anything else', () => {
    expect(() => readVirtualResult({ name: 'a.b' }, good, 'p')).toThrow(SALT_ERR_LOADER_INVALID_UNIT);
    expect(() => readVirtualResult('pkg', good, 'p')).toThrow(/virtual\(\) must return/);
    expect(() => readVirtualResult({ ok: true }, good, 'p')).toThrow(SALT_ERR_LOADER_INVALID_UNIT);
  });
});
