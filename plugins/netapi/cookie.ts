/**
 * Reads one cookie of a `Cookie` header. A value that is not valid percent-encoding
 * (`session_id=%E0%A4%A`) is no cookie at all: the request then carries no session, and a
 * route that needs one answers 401, never a 500 from `decodeURIComponent`.
 */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) {
      try {
        return decodeURIComponent(part.slice(i + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}
