import { describe, expect, it } from 'vitest';
import { BUILTIN_OUTPUTTERS, loadBuiltinOutputter } from './builtin.js';
import { resolveOutputterAsync } from './extension-outputters.js';
import { getOutputter, listOutputters } from './registry.js';

const search = { extension_modules: '/nonexistent', extensions: [] };

describe('built-in outputters, loaded on demand', () => {
  it('are the registry’s outputters, each under its own name', async () => {
    expect(BUILTIN_OUTPUTTERS).toEqual(listOutputters());
    for (const name of BUILTIN_OUTPUTTERS) {
      const o = await loadBuiltinOutputter(name);
      expect(o?.name).toBe(name);
      expect(o).toBe(getOutputter(name));
    }
    expect(await loadBuiltinOutputter('toString')).toBeUndefined();
  });

  it('resolve as Salt’s get_printout does: text is txt, none or unknown is nested', async () => {
    expect((await resolveOutputterAsync('text', search)).name).toBe('txt');
    expect((await resolveOutputterAsync(undefined, search)).name).toBe('nested');
    expect((await resolveOutputterAsync('', search)).name).toBe('nested');
    expect((await resolveOutputterAsync('no_such', search)).name).toBe('nested');
    expect((await resolveOutputterAsync('json', search)).name).toBe('json');
  });
});
