// Python's ordering in templates: lists compare item by item, then by length; bools are numbers.
import { describe, expect, it } from 'vitest';
import { saltFunctionsFrom } from '../salt-functions.js';
import { renderJinja } from './renderer.js';

const context = { grains: {}, pillar: {}, opts: {}, saltenv: 'base', salt: saltFunctionsFrom({}) };

describe('ordering of sequences', () => {
  it("compares lists item by item then by length, as Python does (users-formula's saltversioninfo test)", async () => {
    const out = await renderJinja(
      "{{ [3006, 18] >= [2018, 3, 1] }} {{ [1, 2] < [1, 2, 0] }} {{ True > 0 }} {{ [1, 'a'] < [1, 'b'] }}",
      context,
      { path: 'x.sls' },
    );
    // what Jinja2 under Python 3.11 prints for the same template
    expect(out).toBe('True True True True');
  });
});
