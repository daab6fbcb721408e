/**
 * What Salt's `sys` module builds its answers from (`salt/modules/sysmod.py`,
 * `salt.utils.args.argspec_report`): the name filters and the Python-style argspec of a function,
 * shared by the execution-module and state-module halves of `sys`.
 */
import { z } from 'zod';
import type { FunctionIndex, ResolvedFunctionSpec } from '../kernel/index.js';
import { globMatch } from '../kernel/util.js';

/** Salt's `argspec_report` entry: `null` for what a function lacks, `true` for `*args`/`**kwargs`. */
export interface ArgSpec {
  args: string[] | null;
  defaults: unknown[] | null;
  varargs: true | null;
  kwargs: true | null;
}

/** `sys.doc`'s selection: a glob matches functions, a name matches itself and the functions of a module of that name. */
export function selectForDoc(all: readonly string[], patterns: readonly unknown[]): string[] {
  if (patterns.length === 0) return [...all];
  const out = new Set<string>();
  for (const raw of patterns) {
    const p = String(raw);
    if (p.includes('*')) {
      for (const f of all) if (globMatch(p, f)) out.add(f);
      continue;
    }
    const prefix = p.endsWith('.') ? p : `${p}.`;
    for (const f of all) if (f === p || f.startsWith(prefix)) out.add(f);
  }
  return [...out].sort();
}

/** `sys.list_functions`' selection: a glob or a dotted name is a pattern (`sys.` matches nothing), a bare name a module (`sys` is not `sysctl`). */
export function selectFunctions(all: readonly string[], patterns: readonly unknown[]): string[] {
  if (patterns.length === 0) return [...all].sort();
  const out = new Set<string>();
  for (const raw of patterns) {
    const p = String(raw);
    if (p.includes('*') || p.includes('.')) {
      for (const f of all) if (globMatch(p, f)) out.add(f);
    } else {
      for (const f of all) if (f.startsWith(`${p}.`)) out.add(f);
    }
  }
  return [...out].sort();
}

/** `sys.list_modules`' selection: with no pattern every module; a glob over function names gives their modules, a name itself when it is loaded. */
export async function selectModules(index: FunctionIndex, patterns: readonly unknown[]): Promise<string[]> {
  if (patterns.length === 0) return index.modules();
  const all = await index.list();
  const moduleOf = (f: string): string => f.slice(0, f.indexOf('.'));
  const out = new Set<string>();
  for (const raw of patterns) {
    const p = String(raw);
    for (const f of all) {
      if (p.includes('*') ? globMatch(p, f) : moduleOf(f) === p) out.add(moduleOf(f));
    }
  }
  return [...out].sort();
}

/** What an argspec is read from: a function's built argument schema and its `*args`/`**kwargs` flags. */
export type SignatureSpec = Pick<ResolvedFunctionSpec, 'args' | 'varargs' | 'varkw'>;

/** The functions an argspec report reads (a module, state or runner loader). */
export interface SignatureIndex {
  list(): Promise<string[]>;
  get(fun: string): Promise<SignatureSpec | undefined>;
}

/** Python-style argspec of a function spec: named args in order, trailing defaults, `*args`/`**kwargs`. */
export function argspecOf(spec: SignatureSpec): ArgSpec {
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

/**
 * Salt's `argspec_report(functions, module)`: a glob or a dotted name is a pattern, anything else
 * names a module (so an empty name reports nothing).
 */
export async function argspecReport(index: SignatureIndex, module: string): Promise<Record<string, ArgSpec>> {
  const all = await index.list();
  const funs =
    module.includes('*') || module.includes('.')
      ? all.filter((f) => globMatch(module, f))
      : all.filter((f) => f.startsWith(`${module}.`));
  const out: Record<string, ArgSpec> = {};
  for (const f of funs.sort()) {
    const spec = await index.get(f);
    if (spec) out[f] = argspecOf(spec);
  }
  return out;
}
