/**
 * The state modules' half of Salt's `sys` module: `sys.list_state_functions`,
 * `sys.list_state_modules`, `sys.state_doc`, `sys.state_argspec` and `sys.state_schema`, read
 * from the minion's state loader (`ctx.states.index`) as Salt's read
 * `salt.state.State(__opts__).states`.
 */
import { z } from 'zod';
import { SaltError } from '../kernel/errors.js';
import { defineFunction, type ExecContext, type FunctionIndex } from '../kernel/index.js';
import { globMatch } from '../kernel/util.js';
import { argspecToSchema } from './_state-schema.js';
import { argspecReport, selectFunctions, selectModules } from './_sys-report.js';

function stateIndex(ctx: ExecContext): FunctionIndex {
  const index = ctx.states?.index;
  if (!index) throw new SaltError('SALT_ERR_LOADER_NOT_AVAILABLE', 'No state modules can be loaded here.');
  return index;
}

/**
 * Salt's `state_doc`: each selected function's doc, and its module's doc under the module's name
 * (with no argument every module's). A name that is not a glob selects itself and its module's
 * functions; its module's doc is keyed by the name's first part, as Salt keys it.
 */
async function stateDocs(
  index: FunctionIndex,
  patterns: readonly unknown[],
): Promise<Record<string, string | null>> {
  const all = await index.list();
  const docs: Record<string, string | null> = {};
  const add = async (key: string, fun: string): Promise<void> => {
    const mod = fun.slice(0, fun.indexOf('.'));
    if (!(key in docs)) docs[key] = (await index.moduleDoc(mod)) ?? null;
    docs[fun] = (await index.get(fun))?.doc ?? null;
  };
  if (patterns.length === 0) for (const f of all) await add(f.slice(0, f.indexOf('.')), f);
  for (const raw of patterns) {
    const p = String(raw);
    if (p.includes('*')) {
      for (const f of all) if (globMatch(p, f)) await add(f.slice(0, f.indexOf('.')), f);
      continue;
    }
    const prefix = p.endsWith('.') ? p : `${p}.`;
    for (const f of all) if (f === p || f.startsWith(prefix)) await add(p.split('.')[0] ?? p, f);
  }
  return docs;
}

const patterns = z.object({});

/** The state half of `sys`'s functions, merged into the `sys` module. */
export const sysStateFunctions = {
  list_state_functions: defineFunction({
    args: patterns,
    varargs: true,
    varkw: true, // accepted and unused, as Salt's
    doc: "List the functions of all state modules, or of the given state modules or globs.\n\nCLI Example: salt '*' sys.list_state_functions file 'pkg.*'",
    run: async (ctx, _a, { args }) => selectFunctions(await stateIndex(ctx).list(), args),
  }),
  list_state_modules: defineFunction({
    args: patterns,
    varargs: true,
    doc: "List the state modules loaded on the minion, optionally matching globs.\n\nCLI Example: salt '*' sys.list_state_modules 'mysql_*'",
    run: (ctx, _a, { args }) => selectModules(stateIndex(ctx), args),
  }),
  state_doc: defineFunction({
    args: patterns,
    varargs: true,
    doc: "Return the docs of all state functions, or of the given state modules, functions or globs, with their modules' docs.\n\nCLI Example: salt '*' sys.state_doc service.running",
    run: (ctx, _a, { args }) => stateDocs(stateIndex(ctx), args),
  }),
  state_argspec: defineFunction({
    args: z.object({ module: z.string().default('') }),
    doc: "Return the argument specification of the functions of a state module, a state function or a glob.\n\nCLI Example: salt '*' sys.state_argspec pkg.installed",
    run: (ctx, { module }) => argspecReport(stateIndex(ctx), module),
  }),
  state_schema: defineFunction({
    args: z.object({ module: z.string().default('') }),
    doc: "A JSON Schema of the arguments of each function of a state module, a state function or a glob.\n\nCLI Example: salt '*' sys.state_schema pkg.installed",
    run: async (ctx, { module }) =>
      Object.entries(await argspecReport(stateIndex(ctx), module)).map(([fun, spec]) =>
        argspecToSchema(fun, spec),
      ),
  }),
};
