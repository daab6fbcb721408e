/**
 * Salt's `cmd.call` state (`salt/states/cmd.py`): it invokes `func(*args, **kws)`, where `func`
 * is a Python callable. An SLS can only hand it data (a string, number, list or mapping), so in
 * Salt 3006 every `cmd.call`, and every `cmd.wait_call` a watch fires, ends in Python's
 * `TypeError: '<type>' object is not callable`; tsalt raises the same, which the state runtime
 * reports as "An exception occurred in this state".
 */
import { pyTypeName } from '../kernel/python/index.js';
import type { StateReturn } from '../plugins/states/index.js';

/** Python's name for the type of an SLS value (mappings render as OrderedDict). */
function slsTypeName(v: unknown): string {
  const name = pyTypeName(v).slice("<class '".length, -"'>".length);
  return name === 'dict' ? 'collections.OrderedDict' : name;
}

/** Python's `TypeError`, named so the runtime prints its class. */
class PyTypeError extends Error {
  override name = 'TypeError';
}

/** `cmd.call`: calling an SLS value, which is never callable. */
export function callState(_name: string, func: unknown): StateReturn {
  throw new PyTypeError(`'${slsTypeName(func)}' object is not callable`);
}
