/**
 * PEP 440 versions as Python's `packaging.version.Version` orders them (Salt's `pip` state
 * compares with it): epoch, release (trailing zeros ignored), pre-release, post, dev, local.
 */

type Key = [number, number[], number[], number, number, Array<[number, string]> | null];

const PRE: Record<string, number> = { a: 0, alpha: 0, b: 1, beta: 1, c: 2, rc: 2, pre: 2, preview: 2 };
const VERSION = new RegExp(
  [
    '^v?(?:(?<epoch>\\d+)!)?(?<release>\\d+(?:\\.\\d+)*)',
    '(?:[-_.]?(?<pre>a|b|c|rc|alpha|beta|pre|preview)[-_.]?(?<preN>\\d+)?)?',
    '(?<post>-(?<postN1>\\d+)|[-_.]?(?:post|rev|r)[-_.]?(?<postN2>\\d+)?)?',
    '(?<dev>[-_.]?dev[-_.]?(?<devN>\\d+)?)?',
    '(?:\\+(?<local>[a-z0-9]+(?:[-_.][a-z0-9]+)*))?$',
  ].join(''),
  'i',
);

/** The sort key of `v`, or null when it is not a PEP 440 version. */
function key(v: string): Key | null {
  const g = VERSION.exec(v.trim())?.groups;
  if (!g) return null;
  const release = (g.release as string).split('.').map(Number);
  while (release.length > 1 && release[release.length - 1] === 0) release.pop();
  const post = g.post === undefined ? null : Number(g.postN1 ?? g.postN2 ?? 0);
  const dev = g.dev === undefined ? null : Number(g.devN ?? 0);
  let pre: number[];
  if (g.pre !== undefined) pre = [PRE[g.pre.toLowerCase()] as number, Number(g.preN ?? 0)];
  else if (post === null && dev !== null) pre = [Number.NEGATIVE_INFINITY];
  else pre = [Number.POSITIVE_INFINITY];
  const local = g.local
    ? g.local
        .split(/[-_.]/)
        .map((p): [number, string] => (/^\d+$/.test(p) ? [Number(p), ''] : [-1, p.toLowerCase()]))
    : null;
  return [
    Number(g.epoch ?? 0),
    release,
    pre,
    post ?? Number.NEGATIVE_INFINITY,
    dev ?? Number.POSITIVE_INFINITY,
    local,
  ];
}

const cmp = (x: number, y: number): number => (x === y ? 0 : x < y ? -1 : 1);

function cmpNums(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    if (x !== y) return cmp(x, y);
  }
  return 0;
}

function cmpLocal(a: Key[5], b: Key[5]): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? -1 : 1;
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (!x || !y) return x ? 1 : y ? -1 : 0;
    // a number part sorts after a string part; numbers by value, strings by text
    if (x[0] !== y[0] && (x[0] < 0 || y[0] < 0)) return x[0] < 0 ? -1 : 1;
    if (x[0] !== y[0]) return x[0] < y[0] ? -1 : 1;
    if (x[1] !== y[1]) return x[1] < y[1] ? -1 : 1;
  }
  return 0;
}

/** -1, 0 or 1 as `a` sorts before, with or after `b`; null when either is not a version. */
export function pep440Cmp(a: string, b: string): -1 | 0 | 1 | null {
  const x = key(a);
  const y = key(b);
  if (!x || !y) return null;
  const order = [
    cmp(x[0], y[0]),
    cmpNums(x[1], y[1]),
    // the pre-release slot: [-inf] (a dev release alone) < [letter, n] < [+inf] (none)
    cmpNums(x[2], y[2]),
    cmp(x[3], y[3]),
    cmp(x[4], y[4]),
    cmpLocal(x[5], y[5]),
  ].find((d) => d !== 0);
  return (order ?? 0) as -1 | 0 | 1;
}

/** Salt's `versions.compare(v1, oper, v2)` over PEP 440: an unknown operator or version is False. */
export function pep440Compare(v1: string, oper: string, v2: string): boolean {
  const c = pep440Cmp(v1, v2);
  if (c === null) return false;
  switch (oper) {
    case '==':
      return c === 0;
    case '!=':
      return c !== 0;
    case '<':
      return c < 0;
    case '<=':
      return c <= 0;
    case '>':
      return c > 0;
    case '>=':
      return c >= 0;
    default:
      return false;
  }
}
