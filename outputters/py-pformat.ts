/**
 * Python's `pprint.pformat(data, indent=1, width=80)`, as the txt outputter (for data that
 * is neither a dict nor text) and the pprint outputter print: the one-line repr when it
 * fits, else dicts (keys sorted), lists and long strings broken over lines.
 */
import {
  compareCodePoints,
  cpLength,
  pyRepr,
  pySortedEntries,
  pySplitlines,
  pyStrRepr,
  pyValue,
} from '../kernel/python/index.js';

const WIDTH = 80;

/** `pprint`'s sort of dict items; a mix Python cannot order keeps groups by type name. */
function sortedItems(
  entries: ReadonlyArray<readonly [unknown, unknown]>,
): Array<readonly [unknown, unknown]> {
  const sorted = pySortedEntries(entries);
  if (sorted) return sorted;
  const typeName = (k: unknown): string => `<class '${pyValue(k).kind}'>`;
  return [...entries].sort((a, b) => compareCodePoints(typeName(a[0]), typeName(b[0])));
}

/** pprint's `_safe_repr`: like `repr()` but with dict keys sorted, at every depth. */
function safeRepr(v: unknown, seen: object[]): string {
  const p = pyValue(v);
  if (p.kind !== 'list' && p.kind !== 'dict') return pyRepr(v);
  const obj = v as object;
  if (seen.includes(obj)) return `<Recursion on ${p.kind} with id=0>`;
  seen.push(obj);
  try {
    if (p.kind === 'list') return `[${p.value.map((x) => safeRepr(x, seen)).join(', ')}]`;
    const items = sortedItems(p.value).map(([k, x]) => `${safeRepr(k, seen)}: ${safeRepr(x, seen)}`);
    return `{${items.join(', ')}}`;
  } finally {
    seen.pop();
  }
}

/** Python's `re.findall(r'\S*\s*', line)` less its empty last match. */
function wordsWithSpaces(line: string): string[] {
  return line.match(/\S+\s*|\s+/g) ?? [];
}

class Printer {
  readonly #perLevel: number;
  readonly #out: string[] = [];

  constructor(indentPerLevel: number) {
    this.#perLevel = indentPerLevel;
  }

  text(): string {
    return this.#out.join('');
  }

  format(v: unknown, indent: number, allowance: number, level: number): void {
    const rep = safeRepr(v, []);
    if (cpLength(rep) <= WIDTH - indent - allowance) {
      this.#out.push(rep);
      return;
    }
    const p = pyValue(v);
    if (p.kind === 'dict') this.#dict(p.value, indent, allowance, level + 1);
    else if (p.kind === 'list') this.#list(p.value, indent, allowance, level + 1);
    else if (p.kind === 'str' && p.value !== '') this.#str(p.value, indent, allowance, level + 1);
    else this.#out.push(rep);
  }

  #dict(
    entries: ReadonlyArray<readonly [unknown, unknown]>,
    indent: number,
    allowance: number,
    level: number,
  ): void {
    this.#out.push('{');
    if (this.#perLevel > 1) this.#out.push(' '.repeat(this.#perLevel - 1));
    const items = sortedItems(entries);
    const inner = indent + this.#perLevel;
    items.forEach(([key, value], i) => {
      const last = i === items.length - 1;
      const keyRep = safeRepr(key, []);
      this.#out.push(keyRep, ': ');
      this.format(value, inner + cpLength(keyRep) + 2, last ? allowance + 1 : 1, level);
      if (!last) this.#out.push(`,\n${' '.repeat(inner)}`);
    });
    this.#out.push('}');
  }

  #list(items: readonly unknown[], indent: number, allowance: number, level: number): void {
    this.#out.push('[');
    const inner = indent + this.#perLevel;
    if (this.#perLevel > 1 && items.length > 0) this.#out.push(' '.repeat(this.#perLevel - 1));
    items.forEach((item, i) => {
      const last = i === items.length - 1;
      if (i > 0) this.#out.push(`,\n${' '.repeat(inner)}`);
      this.format(item, inner, last ? allowance + 1 : 1, level);
    });
    this.#out.push(']');
  }

  #str(s: string, indent: number, allowance: number, level: number): void {
    const lines = pySplitlines(s, true);
    if (level === 1) {
      indent += 1;
      allowance += 1;
    }
    const maxWidth = WIDTH - indent;
    let maxWidth1 = maxWidth;
    const chunks: string[] = [];
    let rep = '';
    lines.forEach((line, i) => {
      rep = pyStrRepr(line);
      const lastLine = i === lines.length - 1;
      if (lastLine) maxWidth1 -= allowance;
      if (cpLength(rep) <= maxWidth1) {
        chunks.push(rep);
        return;
      }
      const parts = wordsWithSpaces(line);
      let maxWidth2 = maxWidth;
      let current = '';
      parts.forEach((part, j) => {
        const candidate = current + part;
        if (j === parts.length - 1 && lastLine) maxWidth2 -= allowance;
        if (cpLength(pyStrRepr(candidate)) > maxWidth2) {
          if (current) chunks.push(pyStrRepr(current));
          current = part;
        } else {
          current = candidate;
        }
      });
      if (current) chunks.push(pyStrRepr(current));
    });
    if (chunks.length === 1) {
      this.#out.push(rep);
      return;
    }
    if (level === 1) this.#out.push('(');
    this.#out.push(chunks.join(`\n${' '.repeat(indent)}`));
    if (level === 1) this.#out.push(')');
  }
}

/** Python's `pprint.pformat(v, indent=indentPerLevel)` (width 80, dicts sorted). */
export function pyPformat(v: unknown, indentPerLevel = 1): string {
  const printer = new Printer(indentPerLevel);
  printer.format(v, 0, 0, 0);
  return printer.text();
}
