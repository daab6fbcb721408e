/**
 * Python's `looseversion.LooseVersion` ordering, as Salt's `postgres` module compares extension
 * versions with it: the text splits into runs of digits (numbers) and of other characters
 * (strings, dots dropped), compared part by part.
 */
function parts(v: string): Array<number | string> {
  return (v.match(/\d+|[a-z]+|\./gi) ?? [])
    .filter((p) => p !== '.')
    .map((p) => (/^\d+$/.test(p) ? Number(p) : p));
}

/** a < b as LooseVersion orders them (a number sorts before a string, as Salt's fallback does). */
export function looseVersionLess(a: string, b: string): boolean {
  const x = parts(a);
  const y = parts(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const p = x[i] as number | string;
    const q = y[i] as number | string;
    if (p === q) continue;
    if (typeof p === typeof q) return p < q;
    return typeof p === 'number';
  }
  return x.length < y.length;
}
