/**
 * Debian version comparison (dpkg's `verrevcmp`, what `dpkg --compare-versions` and
 * `apt_pkg.version_compare` do, which Salt's `aptpkg.version_cmp` calls): epoch, then upstream
 * version, then revision; `~` sorts before everything, even the end of the string.
 */

interface DebVersion {
  epoch: number;
  upstream: string;
  revision: string;
}

function parse(v: string): DebVersion {
  let rest = v.trim();
  let epoch = 0;
  const colon = rest.indexOf(':');
  if (colon > 0 && /^\d+$/.test(rest.slice(0, colon))) {
    epoch = Number(rest.slice(0, colon));
    rest = rest.slice(colon + 1);
  }
  const dash = rest.lastIndexOf('-');
  return dash >= 0
    ? { epoch, upstream: rest.slice(0, dash), revision: rest.slice(dash + 1) }
    : { epoch, upstream: rest, revision: '' };
}

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';
const isAlpha = (c: string): boolean => /[A-Za-z]/.test(c);

/** dpkg's `order()`: a character's weight in the non-digit part. */
function order(c: string | undefined): number {
  if (c === undefined || isDigit(c)) return 0;
  if (isAlpha(c)) return c.charCodeAt(0);
  if (c === '~') return -1;
  return c.charCodeAt(0) + 256;
}

function verrevcmp(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    let firstDiff = 0;
    while ((i < a.length && !isDigit(a[i])) || (j < b.length && !isDigit(b[j]))) {
      const ac = order(a[i]);
      const bc = order(b[j]);
      if (ac !== bc) return ac - bc;
      i++;
      j++;
    }
    while (a[i] === '0') i++;
    while (b[j] === '0') j++;
    while (isDigit(a[i]) && isDigit(b[j])) {
      if (!firstDiff) firstDiff = a.charCodeAt(i) - b.charCodeAt(j);
      i++;
      j++;
    }
    if (isDigit(a[i])) return 1;
    if (isDigit(b[j])) return -1;
    if (firstDiff) return firstDiff;
  }
  return 0;
}

/** -1, 0 or 1 as Debian orders versions `a` and `b`. */
export function debVersionCompare(a: string, b: string): -1 | 0 | 1 {
  const x = parse(a);
  const y = parse(b);
  let r = x.epoch - y.epoch;
  if (!r) r = verrevcmp(x.upstream, y.upstream);
  if (!r) r = verrevcmp(x.revision, y.revision);
  return r > 0 ? 1 : r < 0 ? -1 : 0;
}
