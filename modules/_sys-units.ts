/**
 * The half of Salt's `sys` module (`salt/modules/sysmod.py`) about units other than execution
 * and state modules: the renderers, returners and runners this minion would load, by name, and
 * the runners' functions and their docs. Names are tsalt's own units, listed in Salt's format.
 */
import { z } from 'zod';
import { defineFunction, type ExecContext } from '../kernel/index.js';
import { createRunnerLoader } from '../kernel/services.js';
import { globMatch } from '../kernel/util.js';
import { BUILTIN_DIRS, BUILTIN_RETURNERS } from '../plugins/builtin-dirs.js';
import { BUILTIN_RENDERERS } from '../plugins/renderers/index.js';
import { argspecReport, selectForDoc, selectFunctions } from './_sys-report.js';

/** Names matching any of the globs (all of them when none is given), sorted. */
function byGlobs(names: Iterable<string>, patterns: readonly unknown[]): string[] {
  const all = [...new Set(names)];
  const picked =
    patterns.length === 0 ? all : all.filter((n) => patterns.some((p) => globMatch(String(p), n)));
  return picked.sort();
}

/** `list_runners`/`list_returners`: the modules of matching functions (a glob), or the named module. */
function modulesOf(functions: readonly string[], patterns: readonly unknown[]): string[] {
  const mod = (f: string) => f.slice(0, f.indexOf('.'));
  if (patterns.length === 0) return [...new Set(functions.map(mod))].sort();
  const out = new Set<string>();
  for (const raw of patterns) {
    const p = String(raw);
    for (const f of functions) if (p.includes('*') ? globMatch(p, f) : mod(f) === p) out.add(mod(f));
  }
  return [...out].sort();
}

function runners(ctx: ExecContext) {
  return createRunnerLoader(ctx.opts, ctx.log, [BUILTIN_DIRS.runners]);
}

/** The returners' names as Salt keys a loaded returner (`<name>.returner`). */
const returnerKeys = () => Object.keys(BUILTIN_RETURNERS).map((n) => `${n}.returner`);

const patterns = z.object({});

/** `sys.*` functions about renderers, returners and runners; spread into the `sys` module's functions. */
export const sysUnitFunctions = {
  list_renderers: defineFunction({
    args: patterns,
    varargs: true,
    doc: "List the renderers loaded on the minion, optionally matching globs.\n\nCLI Example: salt '*' sys.list_renderers 'yaml*'",
    run: (_ctx, _a, { args }) =>
      byGlobs(
        BUILTIN_RENDERERS.map((r) => r.name),
        args,
      ),
  }),
  renderer_doc: defineFunction({
    args: patterns,
    varargs: true,
    doc: "Return the docs of the renderers, or of the named ones or globs (tsalt's renderers carry none: each is None).\n\nCLI Example: salt '*' sys.renderer_doc 'c*'",
    run: (_ctx, _a, { args }) => {
      const names = BUILTIN_RENDERERS.map((r) => r.name);
      const picked =
        args.length === 0
          ? names
          : names.filter((n) =>
              args.some((p) => {
                const s = String(p);
                return s.includes('*') || s.includes('.') ? globMatch(s, n) : n.startsWith(`${s}.`);
              }),
            );
      return Object.fromEntries(picked.map((n) => [n, null]));
    },
  }),
  list_returners: defineFunction({
    args: patterns,
    varargs: true,
    doc: "List the returners loaded on the minion, optionally matching globs.\n\nCLI Example: salt '*' sys.list_returners 's*'",
    run: (_ctx, _a, { args }) => modulesOf(returnerKeys(), args),
  }),
  list_runners: defineFunction({
    args: patterns,
    varargs: true,
    doc: "List the runners loaded on the minion, optionally matching globs.\n\nCLI Example: salt '*' sys.list_runners 'm*'",
    run: async (ctx, _a, { args }) => modulesOf(await runners(ctx).listFunctions(), args),
  }),
  list_runner_functions: defineFunction({
    args: patterns,
    varargs: true,
    varkw: true, // accepted and unused, as Salt's
    doc: "List the functions of all runner modules, or of the given runners or globs.\n\nCLI Example: salt '*' sys.list_runner_functions state",
    run: async (ctx, _a, { args }) => selectFunctions(await runners(ctx).listFunctions(), args),
  }),
  runner_argspec: defineFunction({
    args: z.object({ module: z.string().default('') }),
    doc: "The argument specification of the functions of a runner, a runner function or a glob.\n\nCLI Example: salt '*' sys.runner_argspec state",
    run: (ctx, { module }) => {
      const loader = runners(ctx);
      return argspecReport({ list: () => loader.listFunctions(), get: (f) => loader.get(f) }, module);
    },
  }),
  runner_doc: defineFunction({
    args: patterns,
    varargs: true,
    doc: "Return the docs of all runner functions, or of the given runners, functions or globs.\n\nCLI Example: salt '*' sys.runner_doc cache.grains",
    run: async (ctx, _a, { args }) => {
      const loader = runners(ctx);
      const out: Record<string, string | null> = {};
      for (const f of selectForDoc(await loader.listFunctions(), args))
        out[f] = (await loader.functionDoc(f)) ?? null;
      return out;
    },
  }),
};
