/**
 * The returner half of Salt's `sys` module (`salt/modules/sysmod.py`): `list_returner_functions`,
 * `returner_doc` and `returner_argspec` over the built-in returners, each function under Salt's
 * name (`local_cache.get_jid`); see _returner-functions.ts for which functions a returner shows.
 */
import { z } from 'zod';
import { defineFunction, type ReturnerDef } from '../kernel/index.js';
import { globMatch } from '../kernel/util.js';
import { BUILTIN_RETURNERS } from '../plugins/builtin-dirs.js';
import { RETURNER_FUNCTION_DOCS, type ReturnerFunction, returnerFunctions } from './_returner-functions.js';
import { type ArgSpec, selectFunctions } from './_sys-report.js';

/** Every built-in returner's functions, by `returner.function` (Salt's loaded returners). */
async function allFunctions(): Promise<Map<string, ReturnerFunction>> {
  const out = new Map<string, ReturnerFunction>();
  for (const [name, url] of Object.entries(BUILTIN_RETURNERS)) {
    const def = ((await import(url.href)) as { default?: ReturnerDef }).default;
    if (!def) continue;
    for (const [fun, f] of returnerFunctions(name, new Set(Object.keys(def)))) out.set(`${name}.${fun}`, f);
  }
  return new Map([...out].sort(([a], [b]) => (a < b ? -1 : 1)));
}

/**
 * Salt's `returner_doc` selection: a name matches itself and its module's functions; a glob (or
 * an empty name) matches every function, as Salt 3006's, which never applies the glob.
 */
function selectDocs(all: readonly string[], patterns: readonly unknown[]): string[] {
  if (patterns.length === 0) return [...all];
  const out = new Set<string>();
  for (const raw of patterns) {
    const p = String(raw);
    const prefix = p.includes('*') || p === '' ? '' : p.endsWith('.') ? p : `${p}.`;
    for (const f of all) if (f === p || f.startsWith(prefix)) out.add(f);
  }
  return all.filter((f) => out.has(f));
}

/** `sys.*` functions about returners; spread into the `sys` module's functions. */
export const sysReturnerFunctions = {
  list_returner_functions: defineFunction({
    args: z.object({}),
    varargs: true,
    varkw: true, // accepted and unused, as Salt's
    doc: "List the functions of every returner, or of the given returners or globs.\n\nCLI Example: salt '*' sys.list_returner_functions local_cache",
    run: async (_ctx, _a, { args }) => selectFunctions([...(await allFunctions()).keys()], args),
  }),
  returner_doc: defineFunction({
    args: z.object({}),
    varargs: true,
    doc: "The docs of every returner function, or of the given returners or functions.\n\nCLI Example: salt '*' sys.returner_doc local_cache.get_jid",
    run: async (_ctx, _a, { args }) => {
      const picked = selectDocs([...(await allFunctions()).keys()], args);
      return Object.fromEntries(
        picked.map((f) => [f, RETURNER_FUNCTION_DOCS[f.slice(f.indexOf('.') + 1)] ?? null]),
      );
    },
  }),
  returner_argspec: defineFunction({
    args: z.object({ module: z.string().default('') }),
    doc: "The argument specification of the functions of a returner, a returner function or a glob.\n\nCLI Example: salt '*' sys.returner_argspec local_cache",
    run: async (_ctx, { module }) => {
      const out: Record<string, ArgSpec> = {};
      const glob = module.includes('*') || module.includes('.');
      for (const [f, { argspec }] of await allFunctions())
        if (glob ? globMatch(module, f) : f.startsWith(`${module}.`)) out[f] = argspec;
      return out;
    },
  }),
};
