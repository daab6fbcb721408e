/**
 * Builds the {@link SaltFunctions} a render context carries: from a plain record of functions
 * (`{'test.echo': (args, kwargs) => ...}`, for tests, masterless tools and callers that hold
 * their functions by name), or from a `call` and an asynchronous lookup, where `prepare` looks up
 * the names a template's text shows so that `is defined` and `'x.y' in salt` answer as Salt's
 * loader does for them.
 */
import type { SaltFunctions } from './types.js';

/** A function by name, called with positional and keyword arguments. */
export type SaltFunctionImpl = (
  args: readonly unknown[],
  kwargs: Readonly<Record<string, unknown>>,
) => unknown;

export function saltFunctionsFrom(fns: Readonly<Record<string, SaltFunctionImpl>>): SaltFunctions {
  return {
    has: (fun) => Object.hasOwn(fns, fun),
    call(fun, args, kwargs) {
      const fn = Object.hasOwn(fns, fun) ? fns[fun] : undefined;
      if (!fn) throw new Error(`'${fun}' is not available`);
      return fn(args, kwargs);
    },
  };
}

/** No functions at all (the context of a render that may not call any). */
export const NO_SALT_FUNCTIONS: SaltFunctions = saltFunctionsFrom({});

/** `salt['mod.fn']`, `salt["mod.fn"]`, `salt.mod.fn` and `'mod.fn' in salt` in a template's text. */
const NAMED = [
  /\bsalt\s*\[\s*(['"])(\w+\.[\w.]+)\1\s*\]/g,
  /\bsalt\.(\w+\.\w+)/g,
  /(['"])(\w+\.[\w.]+)\1\s+(?:not\s+)?in\s+salt\b/g,
];

/** The function names a template's text shows (those `prepare` looks up). */
export function functionNames(source: string): Set<string> {
  const names = new Set<string>();
  if (!source.includes('salt')) return names;
  for (const re of NAMED) for (const m of source.matchAll(re)) names.add(m[2] ?? m[1] ?? '');
  names.delete('');
  return names;
}

/**
 * Functions run by `call`, whose `has` is exact for every name a prepared text shows (`exists`
 * answers it, once per name for the `known` map's life); a name built at render time, which no
 * text shows, is taken to exist.
 */
export function lookedUpSaltFunctions(
  call: SaltFunctions['call'],
  exists: (fun: string) => Promise<boolean>,
  known = new Map<string, boolean>(),
): Required<SaltFunctions> {
  return {
    call,
    has: (fun) => known.get(fun) ?? true,
    async prepare(source) {
      for (const fun of functionNames(source)) if (!known.has(fun)) known.set(fun, await exists(fun));
    },
  };
}
