/**
 * Python's words for the socket errors Node reports by code: what `str(OSError)` reads in Salt's
 * messages (`[Errno 111] Connection refused`). Both the HTTP client of the modules and the
 * Jinja `http_query` filter word transport failures this way.
 */
const WORDS: Readonly<Record<string, string>> = {
  ECONNREFUSED: '[Errno 111] Connection refused',
  ECONNRESET: '[Errno 104] Connection reset by peer',
  EHOSTUNREACH: '[Errno 113] No route to host',
  ENETUNREACH: '[Errno 101] Network is unreachable',
  ENOTFOUND: '[Errno -2] Name or service not known',
  EAI_AGAIN: '[Errno -3] Temporary failure in name resolution',
  ETIMEDOUT: '[Errno 110] Connection timed out',
};

/** A transport error as Python's `str(OSError)` reads; the error's own message for a code Python words otherwise. */
export function pythonOsError(err: { code?: string; message: string }): string {
  return (
    (err.code !== undefined && Object.hasOwn(WORDS, err.code) ? WORDS[err.code] : undefined) ?? err.message
  );
}
