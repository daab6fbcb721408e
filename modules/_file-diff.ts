/**
 * Unified diffs as Salt writes them into a file state's `diff` change (Salt's
 * `salt.utils.stringutils.get_diff`, which is Python's `difflib.unified_diff` over the two files'
 * lines, ends kept). The matcher follows `difflib.SequenceMatcher` (longest matching blocks,
 * the "popular line" heuristic for 200+ lines) so hunks split where Salt's split.
 */

type Opcode = ['equal' | 'replace' | 'delete' | 'insert', number, number, number, number];

/** `difflib.SequenceMatcher` over two lists of lines (no junk function, autojunk on). */
class Matcher {
  private readonly b2j = new Map<string, number[]>();

  constructor(
    private readonly a: readonly string[],
    private readonly b: readonly string[],
  ) {
    b.forEach((line, i) => {
      const at = this.b2j.get(line);
      if (at) at.push(i);
      else this.b2j.set(line, [i]);
    });
    const n = b.length;
    if (n >= 200) {
      const ntest = Math.floor(n / 100) + 1;
      for (const [line, idxs] of [...this.b2j]) if (idxs.length > ntest) this.b2j.delete(line);
    }
  }

  private longest(alo: number, ahi: number, blo: number, bhi: number): [number, number, number] {
    const { a, b, b2j } = this;
    let [besti, bestj, bestsize] = [alo, blo, 0];
    let j2len = new Map<number, number>();
    for (let i = alo; i < ahi; i++) {
      const next = new Map<number, number>();
      for (const j of b2j.get(a[i]!) ?? []) {
        if (j < blo) continue;
        if (j >= bhi) break;
        const k = (j2len.get(j - 1) ?? 0) + 1;
        next.set(j, k);
        if (k > bestsize) [besti, bestj, bestsize] = [i - k + 1, j - k + 1, k];
      }
      j2len = next;
    }
    // extend with popular (auto-junked) lines on either side, as difflib does
    while (besti > alo && bestj > blo && !b2j.has(b[bestj - 1]!) && a[besti - 1] === b[bestj - 1]) {
      besti--;
      bestj--;
      bestsize++;
    }
    while (
      besti + bestsize < ahi &&
      bestj + bestsize < bhi &&
      !b2j.has(b[bestj + bestsize]!) &&
      a[besti + bestsize] === b[bestj + bestsize]
    )
      bestsize++;
    return [besti, bestj, bestsize];
  }

  private blocks(): Array<[number, number, number]> {
    const queue: Array<[number, number, number, number]> = [[0, this.a.length, 0, this.b.length]];
    const found: Array<[number, number, number]> = [];
    while (queue.length) {
      const [alo, ahi, blo, bhi] = queue.pop()!;
      const [i, j, k] = this.longest(alo, ahi, blo, bhi);
      if (!k) continue;
      found.push([i, j, k]);
      if (alo < i && blo < j) queue.push([alo, i, blo, j]);
      if (i + k < ahi && j + k < bhi) queue.push([i + k, ahi, j + k, bhi]);
    }
    found.sort((x, y) => x[0] - y[0] || x[1] - y[1] || x[2] - y[2]);
    const merged: Array<[number, number, number]> = [];
    let [i1, j1, k1] = [0, 0, 0];
    for (const [i2, j2, k2] of found) {
      if (i1 + k1 === i2 && j1 + k1 === j2) k1 += k2;
      else {
        if (k1) merged.push([i1, j1, k1]);
        [i1, j1, k1] = [i2, j2, k2];
      }
    }
    if (k1) merged.push([i1, j1, k1]);
    merged.push([this.a.length, this.b.length, 0]);
    return merged;
  }

  opcodes(): Opcode[] {
    let [i, j] = [0, 0];
    const out: Opcode[] = [];
    for (const [ai, bj, size] of this.blocks()) {
      const tag = i < ai && j < bj ? 'replace' : i < ai ? 'delete' : j < bj ? 'insert' : '';
      if (tag) out.push([tag, i, ai, j, bj]);
      [i, j] = [ai + size, bj + size];
      if (size) out.push(['equal', ai, i, bj, j]);
    }
    return out;
  }

  grouped(n: number): Opcode[][] {
    let codes = this.opcodes();
    if (!codes.length) codes = [['equal', 0, 1, 0, 1]];
    if (codes[0]![0] === 'equal') {
      const [t, i1, i2, j1, j2] = codes[0]!;
      codes[0] = [t, Math.max(i1, i2 - n), i2, Math.max(j1, j2 - n), j2];
    }
    const last = codes.length - 1;
    if (codes[last]![0] === 'equal') {
      const [t, i1, i2, j1, j2] = codes[last]!;
      codes[last] = [t, i1, Math.min(i2, i1 + n), j1, Math.min(j2, j1 + n)];
    }
    const nn = n + n;
    const groups: Opcode[][] = [];
    let group: Opcode[] = [];
    for (const [t, i1o, i2o, j1o, j2o] of codes) {
      let [i1, i2, j1, j2] = [i1o, i2o, j1o, j2o];
      if (t === 'equal' && i2 - i1 > nn) {
        group.push([t, i1, Math.min(i2, i1 + n), j1, Math.min(j2, j1 + n)]);
        groups.push(group);
        group = [];
        [i1, j1] = [Math.max(i1, i2 - n), Math.max(j1, j2 - n)];
      }
      group.push([t, i1, i2, j1, j2]);
    }
    if (group.length && !(group.length === 1 && group[0]![0] === 'equal')) groups.push(group);
    return groups;
  }
}

function range(start: number, stop: number): string {
  let beginning = start + 1;
  const length = stop - start;
  if (length === 1) return `${beginning}`;
  if (!length) beginning -= 1;
  return `${beginning},${length}`;
}

/** Splits text into lines keeping their ends (Python's `readlines()`). */
export function readLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/**
 * The pieces `difflib.unified_diff(a, b, fromfile, tofile, n=n)` yields (headers end with
 * `\n`, each line piece is its tag and the line as given); none when the lists are equal.
 */
export function unifiedDiffPieces(
  a: readonly string[],
  b: readonly string[],
  fromfile = '',
  tofile = '',
  n = 3,
): string[] {
  const out: string[] = [];
  for (const group of new Matcher(a, b).grouped(n)) {
    if (!out.length) out.push(`--- ${fromfile}\n`, `+++ ${tofile}\n`);
    const first = group[0]!;
    const last = group[group.length - 1]!;
    out.push(`@@ -${range(first[1], last[2])} +${range(first[3], last[4])} @@\n`);
    for (const [tag, i1, i2, j1, j2] of group) {
      if (tag === 'equal') {
        for (const line of a.slice(i1, i2)) out.push(` ${line}`);
        continue;
      }
      if (tag === 'replace' || tag === 'delete') for (const line of a.slice(i1, i2)) out.push(`-${line}`);
      if (tag === 'replace' || tag === 'insert') for (const line of b.slice(j1, j2)) out.push(`+${line}`);
    }
  }
  return out;
}

/** `''.join(difflib.unified_diff(...))` over lines with their ends, as Salt's `get_diff`. */
export function unifiedDiff(a: readonly string[], b: readonly string[], fromfile = '', tofile = ''): string {
  return unifiedDiffPieces(a, b, fromfile, tofile).join('');
}

/** Not Salt's `is_text` of a file's first 512 bytes: a NUL byte, or not UTF-8 with over 30% non-text bytes. */
export function isBinary(data: Buffer): boolean {
  const block = data.subarray(0, 512);
  if (block.includes(0)) return true;
  if (!block.length) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(block);
    return false;
  } catch {
    const text = (c: number) =>
      (c >= 32 && c < 127) || c === 10 || c === 13 || c === 9 || c === 12 || c === 8;
    const nontext = block.filter((c) => !text(c)).length;
    return nontext / block.length > 0.3;
  }
}

/**
 * Salt's `file.get_diff` on two buffers: `''` when equal, a note for binary files, else the
 * unified diff without file names (`show_filenames=False`).
 */
export function diffBuffers(oldData: Buffer, newData: Buffer, names?: readonly [string, string]): string {
  if (oldData.equals(newData)) return '';
  const [ob, nb] = [isBinary(oldData), isBinary(newData)];
  if (ob && nb) return 'Replace binary file';
  if (ob) return 'Replace binary file with text file';
  if (nb) return 'Replace text file with binary file';
  return unifiedDiff(
    readLines(oldData.toString('utf8')),
    readLines(newData.toString('utf8')),
    names?.[0] ?? '',
    names?.[1] ?? '',
  );
}
