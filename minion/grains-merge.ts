/**
 * How grains are laid over each other (Salt's `dictupdate.update` for `grains_deep_merge`), apart
 * from the host probes in grains.ts, so that a job process given its host grains loads none of them.
 */

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array);
}

/** Salt's `dictupdate.update`: nested mappings merge, anything else replaces. */
export function deepUpdate(
  dest: Record<string, unknown>,
  upd: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  for (const [k, v] of Object.entries(upd)) {
    const cur = dest[k];
    if (isPlainObject(cur) && isPlainObject(v)) dest[k] = deepUpdate({ ...cur }, v);
    else dest[k] = v;
  }
  return dest;
}

/** `base` with `over` laid on it: replacing top-level keys, or deep-merging (`grains_deep_merge`). */
export function mergeGrains(
  base: Readonly<Record<string, unknown>>,
  over: Readonly<Record<string, unknown>>,
  deep: boolean,
): Record<string, unknown> {
  return deep ? deepUpdate({ ...base }, over) : { ...base, ...over };
}
