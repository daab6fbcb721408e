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

const BOOLS: Readonly<Record<string, boolean>> = {
  true: true,
  yes: true,
  on: true,
  false: false,
  no: false,
  off: false,
};

/** One word typed as YAML would type it (the common cases); anything else stays a string. */
export function typeWord(word: string): unknown {
  if (word === 'None') return null;
  const lower = word.toLowerCase();
  if (
    lower in BOOLS &&
    (word === lower || word === word.toUpperCase() || word === lower[0]?.toUpperCase() + lower.slice(1))
  )
    return BOOLS[lower];
  if (/^[-+]?(0|[1-9]\d*)$/.test(word)) {
    const n = Number(word);
    return Number.isSafeInteger(n) ? n : word;
  }
  if (/^[-+]?(\d+\.\d*|\.\d+|\d+)[eE][-+]?\d+$|^[-+]?(\d+\.\d*|\.\d+)$/.test(word)) return Number(word);
  if (/^[[{]/.test(word)) {
    try {
      return JSON.parse(word) as unknown;
    } catch {
      return word;
    }
  }
  return word;
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
export function cliCommand(target: string, tgtType: string, fun: string, argText: string): string {
  const flag = tgtType === 'glob' ? [] : tgtType === 'list' ? ['-L'] : [`--${tgtType.replace(/_/g, '-')}`];
  const words = (() => {
    try {
      return splitWords(argText);
    } catch {
      return [argText];
    }
  })();
  return ['salt', ...flag, shellQuote(target), fun, ...words.map(shellQuote)].join(' ');
}
