import { pyTypeName } from '../kernel/python/index.js';

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

/**
 * Python's traceback text of `err`: the frame that threw (file, line, function; the rest of the
 * stack is left out), then `<name>: <message>` and a newline, as `traceback.format_exc()` ends.
 */
export function pyTracebackOf(err: Error, name = err.name): string {
  const frame = /^\s+at (?:(.+?) \()?(?:file:\/\/)?(.+?):(\d+):\d+\)?$/m.exec(err.stack ?? '');
  const where = frame ? `  File "${frame[2]}", line ${frame[3]}, in ${frame[1] ?? '<module>'}\n` : '';
  return `Traceback (most recent call last):\n${where}${name}: ${err.message}\n`;
}

/** The bare name of a value's Python class (`NoneType`, `int`), as TypeError texts show it. */
export function pyValueClass(v: unknown): string {
  return pyTypeName(v).slice("<class '".length, -"'>".length);
}
