/**
 * Salt's `clean_kwargs` + `invalid_kwargs` pair for functions whose signature ends in `**kwargs`
 * but which take only a few named keywords from it: what is left over (dunder keys aside) is
 * refused with the same text the argument binder uses for a function without `**kwargs`.
 */
import { SALT_ERR_INVOCATION } from '../kernel/index.js';
import { pyStr } from '../kernel/util.js';

/** The keywords a caller passed, without Salt's `__pub_*`/`__*` ones. */
export function cleanKwargs(kwargs: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(kwargs).filter(([k]) => !k.startsWith('__')));
}

/**
 * Takes `known` out of the caller's keywords and refuses any other:
 * `The following keyword arguments are not valid: x=1`.
 */
export function takeKwargs(
  kwargs: Readonly<Record<string, unknown>>,
  known: readonly string[] = [],
): Record<string, unknown> {
  const left = cleanKwargs(kwargs);
  const taken: Record<string, unknown> = {};
  for (const k of known) {
    if (k in left) {
      taken[k] = left[k];
      delete left[k];
    }
  }
  const invalid = Object.entries(left).map(([k, v]) => `${k}=${pyStr(v)}`);
  if (invalid.length > 0)
    throw new SALT_ERR_INVOCATION(`The following keyword arguments are not valid: ${invalid.join(', ')}`);
  return taken;
}
