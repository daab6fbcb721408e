/**
 * An error that salt-call reports as the Python exception Salt raises there (an unhandled
 * `ValueError`, `KeyError`, `AssertionError`, ...): a plain Error named for the class, qualified
 * when it is not a built-in, as a traceback's last line shows it (`salt.exceptions.SaltRenderError`,
 * `smtplib.SMTPServerDisconnected`).
 */
export function pythonError(name: string, message: string): Error {
  const err = new Error(message);
  err.name = name;
  // the stack starts where the caller raises it, as Python's innermost frame does
  Error.captureStackTrace(err, pythonError);
  return err;
}
