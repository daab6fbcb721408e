/**
 * An error that salt-call reports as the Python exception Salt raises there (an unhandled
 * `ValueError`, `KeyError`, `AssertionError`, ...): a plain Error named for the class.
 */
export function pythonError(name: string, message: string): Error {
  const err = new Error(message);
  err.name = name;
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
