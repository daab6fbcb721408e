import { describe, expect, it } from 'vitest';
import { nested } from './nested.js';

describe('nested outputter', () => {
  it('prints scalars, lists and maps as salt does under a minion id', () => {
    expect(nested(true)).toBe('    True');
    expect(nested('a\nb')).toBe('    a\n    b');
    expect(nested(['a', 1])).toBe('    - a\n    - 1');
    expect(nested({ b: null, a: { x: 1 } })).toBe(
      '    ----------\n    a:\n        ----------\n        x:\n            1\n    b:\n        None',
    );
    expect(nested({ stderr: '', l: [] })).toBe('    ----------\n    l:\n    stderr:');
    expect(nested([{ k: 'v' }])).toBe('    |_\n      ----------\n      k:\n          v');
  });
});
