/**
 * The version test of Salt's `gem.installed`: `salt.utils.versions.compare` over Salt's
 * `LooseVersion`. A version splits into runs of digits (numbers), of lower-case letters and of
 * anything else (strings), dots dropped. All numbers compare as numbers, part by part; once
 * either side holds a string, every part compares as text with numbers zero-padded to 8 digits
 * (Salt's way round Python 3 refusing to order a number and a string).
 */
import { cmpSatisfies } from '../modules/_version-cmp.js';

function parts(v: string): Array<number | string> {
  return v
    .split(/(\d+|[a-z]+|\.)/)
    .filter((p) => p !== '' && p !== '.')
    .map((p) => (/^\d+$/.test(p) ? Number(p) : p));
}

/** Salt's LooseVersion cmp of `a` and `b`: -1, 0 or 1. */
export function looseVersionCmp(a: string, b: string): -1 | 0 | 1 {
  const x = parts(a);
  const y = parts(b);
  const text = [...x, ...y].some((p) => typeof p === 'string');
  const key = (p: number | string) => (typeof p === 'number' && text ? String(p).padStart(8, '0') : p);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const p = key(x[i] as number | string);
    const q = key(y[i] as number | string);
    if (p !== q) return p < q ? -1 : 1;
  }
  return Math.sign(x.length - y.length) as -1 | 0 | 1;
}

/** Salt's `compare(installed, oper, desired)` with its LooseVersion. */
export function looseVersionSatisfies(installed: string, oper: string, desired: string): boolean {
  return cmpSatisfies(oper, looseVersionCmp(installed, desired));
}
