/** Checks that narrow a value of unknown shape, shared by the kernel's files. */

/** A non-null object that is not an array (a map read from YAML, JSON, msgpack or a module). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
