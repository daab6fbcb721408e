import { describe, expect, it } from 'vitest';
import { BUILTIN_OPTION_SETS } from './builtin-options.js';

describe('built-in plugin options', () => {
  it('reads its defaults from a config that does not set them', () => {
    for (const set of BUILTIN_OPTION_SETS) expect(() => set.read({ extra: {} })).not.toThrow();
  });
});
