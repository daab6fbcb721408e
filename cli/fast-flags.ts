/**
 * A small command-line parser for the common case, so a short-lived CLI need not load
 * commander (~5-10 ms of its start) to read a few flags. It understands exactly what commander
 * does with the same option table for plain input (`-c dir`, `-cdir`, `--timeout=5`,
 * `--no-color`, options anywhere among the words) and gives up on anything else: help, an
 * unknown option, a group of short flags, `--`, a missing or refused value. The caller then hands the
 * whole command line to commander, which parses it or prints its help or error.
 */

/** One option, in commander's syntax: `-c, --config-dir <dir>` or `--static`. */
export interface FlagSpec {
  flags: string;
  /** Help text; none hides the option from `--help`. */
  help?: string;
  /** Converts the value (commander's `argParser`). */
  parse?: (value: string) => unknown;
  default?: unknown;
}

interface ParsedFlag {
  short?: string;
  long: string;
  /** commander's attribute name: the long name camel-cased, without a `no-` prefix. */
  key: string;
  takesValue: boolean;
  negate: boolean;
  spec: FlagSpec;
}

/** The parts of a flags string, named as commander names them. */
export function describeFlag(spec: FlagSpec): ParsedFlag {
  const m = /^(?:(-[A-Za-z0-9]), )?(--[A-Za-z0-9_-]+)(?: <[^>]+>)?$/.exec(spec.flags);
  if (!m?.[2]) throw new TypeError(`unsupported flag syntax: ${spec.flags}`);
  const long = m[2];
  const negate = long.startsWith('--no-');
  const bare = negate ? long.slice(5) : long.slice(2);
  return {
    short: m[1],
    long,
    key: bare.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()),
    takesValue: spec.flags.includes('<'),
    negate,
    spec,
  };
}

/** Commander's test for a word that is a negative number, hence an argument, not an option. */
const NEGATIVE_NUMBER = /^-(\d+|\d*\.\d+)(e[+-]?\d+)?$/;

export interface FastParse {
  opts: Record<string, unknown>;
  /** The words that are not options, in order. */
  args: string[];
}

/**
 * Parses `words` (the command line without node and the script) against `specs`; undefined
 * when commander must decide (see the file comment).
 */
export function fastParseFlags(words: readonly string[], specs: readonly FlagSpec[]): FastParse | undefined {
  const flags = specs.map(describeFlag);
  const byName = new Map<string, ParsedFlag>();
  for (const f of flags) {
    byName.set(f.long, f);
    if (f.short) byName.set(f.short, f);
  }
  const opts: Record<string, unknown> = {};
  for (const f of flags) {
    // commander: a `--no-x` option alone makes `x` default to true
    if (f.spec.default !== undefined) opts[f.key] = f.spec.default;
    else if (f.negate) opts[f.key] = true;
  }
  /** False when the value is refused: commander then reports it. */
  const set = (f: ParsedFlag, value: string | undefined): boolean => {
    if (value === undefined) opts[f.key] = !f.negate;
    else {
      try {
        opts[f.key] = f.spec.parse ? f.spec.parse(value) : value;
      } catch {
        return false;
      }
    }
    return true;
  };
  const args: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as string;
    if (word.length < 2 || word[0] !== '-' || NEGATIVE_NUMBER.test(word)) {
      args.push(word);
      continue;
    }
    const exact = byName.get(word);
    if (exact) {
      const value = exact.takesValue ? words[++i] : undefined;
      if (exact.takesValue && value === undefined) return undefined;
      if (!set(exact, value)) return undefined;
      continue;
    }
    if (word[1] !== '-') {
      // `-cVALUE`; a group of boolean short flags (`-Lv`) is left to commander
      const f = byName.get(word.slice(0, 2));
      if (!f?.takesValue || !set(f, word.slice(2))) return undefined;
      continue;
    }
    const eq = word.indexOf('=');
    const f = eq > 2 ? byName.get(word.slice(0, eq)) : undefined;
    if (!f?.takesValue || !set(f, word.slice(eq + 1))) return undefined;
  }
  return { opts, args };
}
