/**
 * A unified diff of two texts (Python's `difflib.unified_diff` as Salt's `get_diff` prints it,
 * without the file names: hunks of changed lines with three lines of context).
 */

/** One line of the diff; `a`/`b`: how many lines of each text come before it. */
type Op = { kind: ' ' | '-' | '+'; line: string; a: number; b: number };

function ops(a: string[], b: string[]): Op[] {
  const n = a.length;
  const m = b.length;
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const out: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      out.push({ kind: ' ', line: a[i]!, a: i++, b: j++ });
    } else if (i < n && (j === m || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) {
      out.push({ kind: '-', line: a[i]!, a: i++, b: j });
    } else out.push({ kind: '+', line: b[j]!, a: i, b: j++ });
  }
  return out;
}

const split = (s: string) => (s === '' ? [] : s.replace(/\n$/, '').split('\n'));

/** The unified diff of `before` → `after` ('' when equal), starting `--- \n+++ \n`. */
export function unifiedDiff(before: string, after: string, context = 3): string {
  const list = ops(split(before), split(after));
  const changed = list.map((o, k) => (o.kind !== ' ' ? k : -1)).filter((k) => k >= 0);
  if (changed.length === 0) return '';
  const hunks: [number, number][] = [];
  for (const k of changed) {
    const lo = Math.max(0, k - context);
    const hi = Math.min(list.length - 1, k + context);
    const last = hunks[hunks.length - 1];
    if (last && lo <= last[1] + 1) last[1] = hi;
    else hunks.push([lo, hi]);
  }
  let out = '--- \n+++ \n';
  for (const [lo, hi] of hunks) {
    const part = list.slice(lo, hi + 1);
    const aLines = part.filter((o) => o.kind !== '+').length;
    const bLines = part.filter((o) => o.kind !== '-').length;
    const first = list[lo]!;
    const aStart = first.a;
    const bStart = first.b;
    const range = (start: number, len: number) =>
      len === 1 ? `${start + 1}` : `${len === 0 ? start : start + 1},${len}`;
    out += `@@ -${range(aStart, aLines)} +${range(bStart, bLines)} @@\n`;
    for (const o of part) out += `${o.kind}${o.line}\n`;
  }
  return out;
}
