/** Checks that narrow a value of unknown shape, shared by the kernel's files. */

/** A non-null object that is not an array (a map read from YAML, JSON, msgpack or a module). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The `code` of a Node system error (`ENOENT`, `EADDRINUSE`), if `err` carries one. */
export function errnoCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string'
    ? err.code
    : undefined;
}
