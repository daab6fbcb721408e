/**
 * Salt's `sys` execution module (`salt/modules/sysmod.py`): what this minion can run, and the
 * documentation of it, straight from the loader and the functions' own `doc`.
 */
import { z } from 'zod';
import {
  defineFunction,
  defineModule,
  type FunctionIndex,
  type ResolvedFunctionSpec,
} from '../kernel/index.js';
import { globMatch } from '../kernel/util.js';
import { refreshModules } from './saltutil.js';

/** Salt's selection rule: a glob (`*`) or a dotted name is matched as a pattern, a bare name as a module. */
function select(all: readonly string[], patterns: readonly unknown[], bareIsModule = true): string[] {
  if (patterns.length === 0) return [...all];
  const out = new Set<string>();
  for (const raw of patterns) {
    const p = String(raw);
    if (p.includes('*') || (p.includes('.') && !p.endsWith('.'))) {
      for (const f of all) if (f === p || globMatch(p, f)) out.add(f);
    } else if (bareIsModule) {
      const prefix = p.endsWith('.') ? p : `${p}.`;
      for (const f of all) if (f.startsWith(prefix)) out.add(f);
    }
  }
  return [...out].sort();
}

/** Salt's `argspec_report` entry: `null` for what a function lacks, `true` for `*args`/`**kwargs`. */
interface ArgSpec {
  args: string[] | null;
  defaults: unknown[] | null;
  varargs: true | null;
  kwargs: true | null;
}

/** Python-style argspec of a function spec: named args in order, trailing defaults, `*args`/`**kwargs`. */
function argspecOf(spec: ResolvedFunctionSpec): ArgSpec {
  const shape = (spec.args?.shape ?? {}) as Record<string, z.ZodType>;
  const args = Object.keys(shape);
  const defaults: unknown[] = [];
  for (const name of args) {
    // an optional argument's default is what leaving it out gives, whatever wraps it (pyFlag's transform too)
    const field = shape[name];
    const optin = (field as { _zod?: { optin?: string } } | undefined)?._zod?.optin;
    const omitted = optin ? field?.safeParse(undefined) : undefined;
    // a sentinel default Salt shows by its repr (pillar.get's `<Constant.NOT_SET>`), declared with .meta()
    const shown = field ? z.globalRegistry.get(field)?.argspecDefault : undefined;
    if (shown !== undefined && optin) defaults.push(shown);
    else if (omitted?.success) defaults.push(omitted.data === undefined ? null : omitted.data);
    else if (defaults.length > 0) defaults.push(null);
  }
  return {
    args: args.length > 0 ? args : null,
    defaults: defaults.length > 0 ? defaults : null,
    varargs: spec.varargs ? true : null,
    kwargs: spec.varkw ? true : null,
  };
}

async function docsOf(index: FunctionIndex, funs: readonly string[]): Promise<Record<string, string | null>> {
  const out: Record<string, string | null> = {};
  for (const f of funs) out[f] = (await index.get(f))?.doc ?? null;
  return out;
}

const patterns = z.object({});

export default defineModule({
  name: 'sys',
  doc: 'What this minion can run, and the documentation of it.',
  functions: {
    list_functions: defineFunction({
      args: patterns,
      varargs: true,
      varkw: true, // accepted and unused, as Salt's
      doc: "List the functions of all modules, or of the given modules or globs.\n\nCLI Example: salt '*' sys.list_functions sys 'test.*'",
      run: async (ctx, _a, { args }) => select(await ctx.functions.list(), args),
    }),
    list_modules: defineFunction({
      args: patterns,
      varargs: true,
      doc: "List the modules loaded on the minion, optionally matching globs.\n\nCLI Example: salt '*' sys.list_modules 's*'",
      run: async (ctx, _a, { args }) => {
        if (args.length === 0) return ctx.functions.modules();
        const all = await ctx.functions.list();
        const mods = new Set<string>();
        for (const raw of args) {
          const p = String(raw);
          for (const f of all) {
            const mod = f.slice(0, f.indexOf('.'));
            if (p.includes('*') ? globMatch(p, f) || globMatch(p, mod) : mod === p) mods.add(mod);
          }
        }
        return [...mods].sort();
      },
    }),
    doc: defineFunction({
      args: patterns,
      varargs: true,
      doc: "Return the docs of all functions, or of the given modules, functions or globs.\n\nCLI Example: salt '*' sys.doc test.ping",
      run: async (ctx, _a, { args }) => docsOf(ctx.functions, select(await ctx.functions.list(), args)),
    }),
    reload_modules: defineFunction({
      // Salt's minion answers sys.reload_modules with its gen_modules(initial_load, context): the
      // same arguments, which change nothing here either
      args: z.object({ initial_load: z.unknown().default(false), context: z.unknown().optional() }),
      doc: "Tell the minion to reload the execution modules: the next jobs run in fresh job processes.\n\nCLI Example: salt '*' sys.reload_modules",
      run: (ctx) => refreshModules(ctx),
    }),
    argspec: defineFunction({
      args: z.object({ module: z.string().default('') }),
      doc: "Return the argument specification of the functions of a module, a function or a glob.\n\nCLI Example: salt '*' sys.argspec test.echo",
      run: async (ctx, { module }) => {
        // Salt's argspec_report: no module names nothing ('*' names every function)
        if (!module) return {};
        const funs = select(await ctx.functions.list(), [module]);
        const out: Record<string, ArgSpec> = {};
        for (const f of funs) {
          const spec = await ctx.functions.get(f);
          if (spec) out[f] = argspecOf(spec);
        }
        return out;
      },
    }),
  },
});
