import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type ModuleDef, resolveFunctionArgs } from '../kernel/loader/define.js';
import { type BaredocIndex, baredocArgs, docsOf, listFunctions } from './_baredoc-entries.js';
import gnome from './gnome.js';
import tuned from './tuned.js';

/** The index a loader gives for these modules, each loaded from the file `stems[name]`. */
function loaded(mods: Record<string, ModuleDef>): BaredocIndex {
  const byName = new Map(Object.values(mods).map((m) => [m.name, m]));
  const stemOf = new Map(Object.entries(mods).map(([stem, m]) => [m.name, stem]));
  return {
    modules: async () => [...byName.keys()].sort(),
    list: async (mod) =>
      [...byName.values()]
        .filter((m) => !mod || m.name === mod)
        .flatMap((m) => Object.keys(m.functions).map((f) => `${m.name}.${f}`))
        .sort(),
    get: async (fun) => {
      const [mod = '', fn = ''] = fun.split('.');
      const spec = byName.get(mod)?.functions[fn];
      return spec && resolveFunctionArgs(spec);
    },
    moduleDoc: async (name) => byName.get(name)?.doc,
    provider: async (name) => stemOf.get(name),
  };
}

describe("baredoc's argument entries", () => {
  it('gives each argument its default or null, then args/kwargs for *args/**kwargs', () => {
    const spec = {
      args: z.object({ a: z.string(), b: z.string().default('x'), c: z.unknown().default(null) }),
    };
    expect(baredocArgs({ ...spec, varargs: true, varkw: true })).toEqual({
      a: null,
      b: 'x',
      c: null,
      args: 'args',
      kwargs: 'kwargs',
    });
    expect(Object.keys(baredocArgs({ ...spec, varkw: true }))).toEqual(['a', 'b', 'c', 'kwargs']);
  });

  it("leaves out defaults that are no literal in Salt's source, shifting the rest as Salt's reading does", () => {
    // def f(a, b=5, c=[], d=-1): Salt keeps only 5, and zips it onto the last argument
    const spec = {
      args: z.object({
        a: z.string(),
        b: z.number().default(5),
        c: z.array(z.string()).default([]),
        d: z.number().default(-1),
      }),
    };
    expect(baredocArgs(spec)).toEqual({ a: null, b: null, c: null, d: 5 });
  });
});

describe("baredoc's listings", () => {
  const index = loaded({ gnome, tuned, aptpkg: { ...tuned, name: 'pkg' } });

  it('selects a module by the file it comes from and keys it by its name', async () => {
    expect(await listFunctions(index, './', 'aptpkg', true)).toEqual({
      pkg: ['active', 'list', 'off', 'profile'],
    });
    expect(await listFunctions(index, './', 'pkg', true)).toEqual({});
    const all = await listFunctions(index, './', false, false);
    expect(Object.keys(all)).toEqual(['gnome', 'pkg', 'tuned']);
    expect(all.tuned).toContainEqual({ profile: { profile_name: null } });
    expect(all.gnome).toContainEqual({ setIdleDelay: { delaySeconds: null, kwargs: 'kwargs' } });
  });

  it("lists a module's functions in the order its file defines them (Salt's source order)", async () => {
    // Salt 3006.18: baredoc.list_modules tuned names_only=True -> list, active, off, profile
    expect(await listFunctions(index, './', 'tuned', true)).toEqual({
      tuned: ['list', 'active', 'off', 'profile'],
    });
    const all = await listFunctions(index, './', 'gnome', true);
    expect(all.gnome?.slice(0, 3)).toEqual(['ping', 'getIdleDelay', 'setIdleDelay']);
  });

  it("refuses a function name where only modules are listed, with Salt's words", async () => {
    await expect(listFunctions(index, './', 'tuned.list', false)).rejects.toThrow('Function name given');
    await expect(listFunctions(index, './', 5, false)).rejects.toThrow(
      "argument of type 'int' is not iterable",
    );
  });

  it('gives the docs of a module and its functions, or of one function, and an IndexError for an unknown file', async () => {
    const docs = await docsOf(index, ['tuned']);
    expect(Object.keys(docs)).toEqual(['tuned', 'tuned.active', 'tuned.list', 'tuned.off', 'tuned.profile']);
    expect(docs.tuned).toBe(tuned.doc);
    expect(Object.keys(await docsOf(index, ['tuned.off']))).toEqual(['tuned.off']);
    await expect(docsOf(index, ['nosuch'])).rejects.toThrow('list index out of range');
  });
});
