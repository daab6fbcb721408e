/**
 * Salt's `baredoc` execution module (`salt/modules/baredoc.py`): the execution and state
 * modules' functions with their arguments and docs, in Salt's shapes. Salt reads its module
 * sources; tsalt reads its loaders' index (what `sys.argspec` and `sys.doc` read), so the
 * modules listed are the ones this minion can load, and a module's functions come in the order
 * its file defines them (Salt's source order, for tsalt's own modules).
 */
import { defineFunction, defineModule, type ExecContext, SaltError } from '../kernel/index.js';
import { type BaredocIndex, type BaredocKind, docsOf, listFunctions } from './_baredoc-entries.js';

function stateIndex(ctx: ExecContext): BaredocIndex {
  const index = ctx.states?.index;
  if (!index) throw new SaltError('SALT_ERR_LOADER_NOT_AVAILABLE', 'No state modules can be loaded here.');
  return index;
}

/** `list_states`/`list_modules`: Salt's `(name=False, names_only=False)`. */
function lister(kind: string, dir: BaredocKind, indexOf: (ctx: ExecContext) => BaredocIndex, fn: string) {
  return defineFunction({
    args: (z) => z.object({ name: z.unknown().default(false), names_only: z.unknown().default(false) }),
    doc: `The ${kind} modules and their functions, each with its arguments and their defaults
({module: [{function: {argument: default}}]}), or only the functions' names with names_only.
name: the ${kind} module file to list (all when not given).

CLI Example:

    salt myminion baredoc.${fn}`,
    run: (ctx, a) => listFunctions(indexOf(ctx), dir, a.name, a.names_only),
  });
}

export default defineModule({
  name: 'baredoc',
  doc: "The execution and state modules' functions, their arguments and their docs.",
  functions: {
    list_states: lister('state', '../states/', stateIndex, 'list_states'),
    list_modules: lister('execution', './', (ctx) => ctx.functions, 'list_modules'),
    state_docs: defineFunction({
      varargs: true,
      doc: `The docs of every state module and its functions, or of the named state modules or
module.function names.

CLI Example:

    salt myminion baredoc.state_docs at`,
      run: (ctx, _a, { args }) => docsOf(stateIndex(ctx), args),
    }),
    module_docs: defineFunction({
      varargs: true,
      doc: `The docs of every execution module and its functions, or of the named modules or
module.function names.

CLI Example:

    salt myminion baredoc.module_docs`,
      run: (ctx, _a, { args }) => docsOf(ctx.functions, args),
    }),
  },
});
