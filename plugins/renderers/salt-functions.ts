/**
 * Builds the {@link SaltFunctions} a render context carries from a plain record of functions
 * (`{'test.echo': (args, kwargs) => ...}`): for tests, masterless tools and callers that hold
 * their functions by name.
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
