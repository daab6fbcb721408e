/**
 * The run form's `arguments` field in Salt's CLI syntax (`a 1 k=v "two words"`): split as a
 * shell splits words, then typed as the `salt` CLI types them before publishing (numbers,
 * booleans, `None`, JSON lists and maps; `name=value` words into one trailing
 * `{__kwarg__: true}` map). The reverse, {@link cliCommand}, is "copy as CLI command".
 */

/** Shell-like word splitting: whitespace separates, quotes group, backslash escapes. */
export function splitWords(text: string): string[] {
  const words: string[] = [];
  let cur = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (quote) {
      if (ch === quote) quote = undefined;
      else if (ch === '\\' && quote === '"' && i + 1 < text.length) cur += text[++i];
      else cur += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      inWord = true;
    } else if (ch === '\\' && i + 1 < text.length) {
      cur += text[++i];
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(cur);
      cur = '';
      inWord = false;
    } else {
      cur += ch;
      inWord = true;
    }
  }
  if (quote) throw new Error(`unterminated ${quote} quote in the arguments`);
  if (inWord) words.push(cur);
  return words;
}

const BOOL_WORDS = /^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$/;
const NULL_WORDS = /^(?:~|null|Null|NULL)$/;
const INT_BASE: readonly [RegExp, number][] = [
  [/^[-+]?0b[01_]+$/, 2],
  [/^[-+]?0x[0-9a-fA-F_]+$/, 16],
  [/^[-+]?0[0-7_]+$/, 8],
  [/^[-+]?(?:0|[1-9][0-9_]*)$/, 10],
];
const SEXAGESIMAL = /^[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+$/;
const FLOAT = /^[-+]?(?:[0-9][0-9_]*\.[0-9_]*|\.[0-9_]+)(?:[eE][-+][0-9]+)?$/;

/** A YAML 1.1 integer (PyYAML's forms: binary, octal, hex, decimal, base 60), or undefined. */
function yamlInt(word: string): number | undefined {
  const sign = word.startsWith('-') ? -1 : 1;
  const body = word.replace(/^[-+]/, '').replace(/_/g, '');
  if (SEXAGESIMAL.test(word)) return sign * body.split(':').reduce((n, part) => n * 60 + Number(part), 0);
  for (const [re, base] of INT_BASE) {
    if (!re.test(word)) continue;
    const digits = base === 10 ? body : body.replace(/^0[bx]?/, '') || '0';
    const n = Number.parseInt(digits, base);
    return Number.isSafeInteger(n) ? sign * n : undefined;
  }
  return undefined;
}

/** Splits a flow collection's inside on its top-level commas. */
function flowItems(inner: string): string[] {
  const items: string[] = [];
  let depth = 0;
  let quote: string | undefined;
  let cur = '';
  for (const ch of inner) {
    if (quote) {
      if (ch === quote) quote = undefined;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '[' || ch === '{') depth++;
    else if (ch === ']' || ch === '}') depth--;
    else if (ch === ',' && depth === 0) {
      items.push(cur.trim());
      cur = '';
      continue;
    }
    cur += ch;
  }
  if (cur.trim() !== '') items.push(cur.trim());
  return items;
}

/** A flow scalar or collection (`[a, 1]`, `{k: v}`, `'x'`) as YAML loads it. */
function flowValue(text: string): unknown {
  const t = text.trim();
  if (t.startsWith('[') && t.endsWith(']')) return flowItems(t.slice(1, -1)).map(flowValue);
  if (t.startsWith('{') && t.endsWith('}')) {
    const out: Record<string, unknown> = {};
    for (const item of flowItems(t.slice(1, -1))) {
      const m = /^((?:"[^"]*"|'[^']*'|[^:])*?):(?:\s+(.*))?$/s.exec(item);
      if (!m) throw new Error(`not a flow mapping entry: ${item}`);
      out[String(flowValue(m[1] as string))] = m[2] === undefined ? null : flowValue(m[2]);
    }
    return out;
  }
  return scalar(t);
}

/** JSON is YAML: a JSON collection as JSON reads it, else as a YAML flow collection. */
function jsonOrFlow(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return flowValue(text);
  }
}

function scalar(word: string): unknown {
  if (word.length >= 2 && word.startsWith("'") && word.endsWith("'"))
    return word.slice(1, -1).replace(/''/g, "'");
  if (word.length >= 2 && word.startsWith('"') && word.endsWith('"')) return JSON.parse(word) as unknown;
  if (NULL_WORDS.test(word) || word === '') return null;
  if (BOOL_WORDS.test(word)) return /^(?:yes|true|on)$/i.test(word);
  const int = yamlInt(word);
  if (int !== undefined) return int;
  if (FLOAT.test(word)) return Number(word.replace(/_/g, ''));
  return word;
}

/**
 * One word typed as Salt's `yamlify_arg` types it (YAML 1.1 scalars as PyYAML reads them,
 * `[...]` lists and `{...}` maps); what YAML would not load, or loads as another type (a
 * date), stays the string it was.
 */
export function typeWord(word: string): unknown {
  const t = word.trim();
  if (t === '' || t === '---' || t === '...' || /[\t\r\n]/.test(word)) return word;
  if (word.includes('_') && /^[0-9_]+$/.test(t)) return word;
  if (word === 'None') return null;
  try {
    const v = t.startsWith('[') || t.startsWith('{') ? jsonOrFlow(t) : scalar(t);
    if (word.includes('#') && (typeof v === 'string' || v === null)) return word;
    if (v === null && (t.startsWith('#') || t === '!')) return word;
    return v;
  } catch {
    return word;
  }
}

const KWARG = /^([\p{L}_][\p{L}\p{N}_.-]*)=(?!=)(.*)$/su;

/** What the `salt` CLI publishes for these words: typed positionals, then one keyword map. */
export function parseArguments(text: string): unknown[] {
  const args: unknown[] = [];
  const kwargs: Record<string, unknown> = {};
  let haveKw = false;
  for (const word of splitWords(text)) {
    const m = KWARG.exec(word);
    if (m) {
      kwargs[m[1] as string] = typeWord(m[2] as string);
      haveKw = true;
    } else args.push(typeWord(word));
  }
  // a 20-digit number is a jid: Salt sends it as a string
  const out = args.map((a) => (typeof a === 'number' && /^\d{20}$/.test(String(a)) ? String(a) : a));
  if (haveKw) out.push({ __kwarg__: true, ...kwargs });
  return out;
}

/** A word quoted for a POSIX shell when it needs it. */
export function shellQuote(word: string): string {
  if (word !== '' && /^[\w@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The `salt` command line for a run (the target-type flag unless glob). */
export function cliCommand(
  target: string,
  tgtType: string,
  fun: string,
  argText: string,
  opts: { batch?: string; async?: boolean } = {},
): string {
  const flag = tgtType === 'glob' ? [] : tgtType === 'list' ? ['-L'] : [`--${tgtType.replace(/_/g, '-')}`];
  const batch = opts.batch?.trim();
  if (batch) flag.unshift('-b', shellQuote(batch));
  else if (opts.async) flag.unshift('--async');
  const words = (() => {
    try {
      return splitWords(argText);
    } catch {
      return [argText];
    }
  })();
  return ['salt', ...flag, shellQuote(target), fun, ...words.map(shellQuote)].join(' ');
}
