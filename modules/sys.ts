/**
 * Salt's `sys` execution module (`salt/modules/sysmod.py`): what this minion can run, and the
 * documentation of it, straight from the loader and the functions' own `doc`. The state
 * modules' half (`sys.state_doc`, `sys.list_state_functions`, ...) is in `_sys-states.ts`.
 */
import { z } from 'zod';
import { defineFunction, defineModule, type FunctionIndex } from '../kernel/index.js';
import { refreshModules } from './_saltutil-sync.js';
import { argspecReport, selectForDoc, selectFunctions, selectModules } from './_sys-report.js';
import { sysReturnerFunctions } from './_sys-returners.js';
import { sysStateFunctions } from './_sys-states.js';
import { sysUnitFunctions } from './_sys-units.js';

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
      run: async (ctx, _a, { args }) => selectFunctions(await ctx.functions.list(), args),
    }),
    list_modules: defineFunction({
      args: patterns,
      varargs: true,
      doc: "List the modules loaded on the minion, optionally matching globs.\n\nCLI Example: salt '*' sys.list_modules 's*'",
      run: (ctx, _a, { args }) => selectModules(ctx.functions, args),
    }),
    doc: defineFunction({
      args: patterns,
      varargs: true,
      doc: "Return the docs of all functions, or of the given modules, functions or globs.\n\nCLI Example: salt '*' sys.doc test.ping",
      run: async (ctx, _a, { args }) => docsOf(ctx.functions, selectForDoc(await ctx.functions.list(), args)),
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
      run: (ctx, { module }) => argspecReport(ctx.functions, module),
    }),
    ...sysStateFunctions,
    ...sysUnitFunctions,
    ...sysReturnerFunctions,
  },
});
