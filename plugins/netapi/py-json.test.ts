import { describe, expect, it } from 'vitest';
import { pyJson } from './py-json.js';

describe('pyJson', () => {
  it('writes what salt-api writes', () => {
    expect(pyJson({ return: [{ m1: true, m0: true }] })).toBe('{"return": [{"m1": true, "m0": true}]}');
    expect(pyJson({ return: 'Welcome', clients: ['local', 'ssh'] })).toBe(
      '{"return": "Welcome", "clients": ["local", "ssh"]}',
    );
    expect(pyJson({ a: [], b: {}, c: null, d: 1.5, e: undefined })).toBe(
      '{"a": [], "b": {}, "c": null, "d": 1.5}',
    );
  });
  it('escapes non-ASCII like ensure_ascii', () => {
    expect(pyJson('é✓')).toBe('"\\u00e9\\u2713"');
    expect(pyJson('a"b\n')).toBe('"a\\"b\\n"');
  });
});
