/**
 * An error that salt-call reports as the Python exception Salt raises there (an unhandled
 * `ValueError`, `KeyError`, `AssertionError`, ...): a plain Error named for the class.
 */
export function pythonError(name: string, message: string): Error {
  const err = new Error(message);
  err.name = name;
  return err;
}
