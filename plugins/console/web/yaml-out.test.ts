import { describe, expect, it } from 'vitest';
import { toYaml } from './yaml-out.js';

describe('YAML view', () => {
  it('prints scalars, maps and lists as block YAML', () => {
    expect(toYaml(true)).toBe('true');
    expect(toYaml(null)).toBe('null');
    expect(toYaml('yes')).toBe("'yes'");
    expect(toYaml('a: b')).toBe('"a: b"');
    expect(toYaml({ a: 1, b: [1, 'x'], c: {}, d: { e: null } })).toBe(
      'a: 1\nb:\n  - 1\n  - x\nc: {}\nd:\n  e: null',
    );
    expect(toYaml([{ k: 'v', n: 2 }, []])).toBe('- k: v\n  n: 2\n- []');
  });
});
