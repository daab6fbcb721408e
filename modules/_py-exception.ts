import { pyTypeName } from '../kernel/util.js';

/**
 * An error that salt-call reports as the Python exception Salt raises there (an unhandled
 * `ValueError`, `KeyError`, `AssertionError`, ...): a plain Error named for the class.
 */
export function pythonError(name: string, message: string): Error {
  const err = new Error(message);
  err.name = name;
  return err;
}

/** The bare name of a value's Python class (`NoneType`, `int`), as TypeError texts show it. */
export function pyClassName(v: unknown): string {
  return pyTypeName(v).slice("<class '".length, -"'>".length);
}
