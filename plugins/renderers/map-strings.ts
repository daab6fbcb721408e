/**
 * The walk Salt's secret renderers (gpg, nacl, pass) share: every string value at any depth of
 * lists and mappings is replaced, in place, by what `fn` makes of it; keys, numbers and other
 * values stay as they are.
 */
export async function mapStrings(v: unknown, fn: (s: string) => Promise<unknown>): Promise<unknown> {
  if (typeof v === 'string') return fn(v);
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) v[i] = await mapStrings(v[i], fn);
    return v;
  }
  if (typeof v === 'object' && v !== null && !(v instanceof Uint8Array)) {
    const m = v as Record<string, unknown>;
    for (const k of Object.keys(m)) m[k] = await mapStrings(m[k], fn);
    return m;
  }
  return v;
}
