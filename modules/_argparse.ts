/**
 * Python 3.11's `argparse.ArgumentParser` as far as Salt's line readers use it (the kickstart
 * reader builds one per directive): long options that store a value, store true or append,
 * aliases, choices, required options, positionals, `--opt=value`, unique prefixes of long
 * options, `--`, and argparse's errors. An error ends the parse as argparse does: the usage
 * (wrapped at 78 columns, as with no terminal) and `<prog>: error: <why>` on stderr, exit 2,
 * given here as a {@link PySystemExit}. `-h` ends it with exit 0 and the help on stdout.
 */

/** One `add_argument`: `flags` empty for a positional named `dest`. */
export interface ArgSpec {
  flags: readonly string[];
  dest: string;
  action: 'store' | 'store_true' | 'append';
  choices?: readonly string[];
  required?: boolean;
}

export type ArgValue = string | boolean | string[] | null;

/** Python's `SystemExit` raised by argparse: `status` is the exit code, `message` what it printed. */
export class PySystemExit extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'SystemExit';
  }
}

/** Python's `str.split(sep, 1)` as a pair; `rest` undefined without `sep`. */
function splitOnce(s: string, sep: string): [string, string | undefined] {
  const i = s.indexOf(sep);
  return i < 0 ? [s, undefined] : [s.slice(0, i), s.slice(i + sep.length)];
}

const HELP: ArgSpec = { flags: ['-h', '--help'], dest: 'help', action: 'store_true' };
const TEXT_WIDTH = 78;

/** An option string found in an argv word, with its `=value` when written so. */
interface OptionHit {
  spec: ArgSpec;
  flag: string;
  explicit: string | undefined;
}

export class ArgParser {
  private readonly specs: ArgSpec[] = [HELP];

  constructor(private readonly prog: string) {}

  /** `add_argument`: a positional when `flags` is empty. */
  add(spec: ArgSpec): this {
    this.specs.push(spec);
    return this;
  }

  /** The usage line argparse prints before an error, wrapped as its HelpFormatter does. */
  usage(): string {
    const part = (s: ArgSpec): string => {
      const meta = s.choices ? `{${s.choices.join(',')}}` : s.dest.toUpperCase();
      if (!s.flags.length) return s.choices ? meta : s.dest;
      const text = s.action === 'store_true' ? String(s.flags[0]) : `${s.flags[0]} ${meta}`;
      return s.required ? text : `[${text}]`;
    };
    const opts = this.specs.filter((s) => s.flags.length).map(part);
    const pos = this.specs.filter((s) => !s.flags.length).map(part);
    const prefix = 'usage: ';
    const flat = [this.prog, ...opts, ...pos].join(' ');
    if (prefix.length + flat.length <= TEXT_WIDTH) return `${prefix}${flat}`;
    const indent = ' '.repeat(prefix.length + this.prog.length + 1);
    const lines = (parts: string[], first: boolean): string[] => {
      const out: string[] = [];
      let line: string[] = [];
      let len = (first ? prefix.length : indent.length) - 1;
      for (const p of parts) {
        if (len + 1 + p.length > TEXT_WIDTH && line.length) {
          out.push(indent + line.join(' '));
          line = [];
          len = indent.length - 1;
        }
        line.push(p);
        len += p.length + 1;
      }
      if (line.length) out.push(indent + line.join(' '));
      if (first && out[0] !== undefined) out[0] = out[0].slice(indent.length);
      return out;
    };
    const all = opts.length
      ? [...lines([this.prog, ...opts], true), ...lines(pos, false)]
      : lines([this.prog, ...pos], true);
    return `${prefix}${all.join('\n')}`;
  }

  /** argparse's `format_help`: usage, then the positionals and options, one line each. */
  help(): string {
    const meta = (s: ArgSpec) => (s.choices ? `{${s.choices.join(',')}}` : s.dest.toUpperCase());
    const invocation = (s: ArgSpec): string => {
      if (!s.flags.length) return s.choices ? meta(s) : s.dest;
      return s.flags.map((f) => (s.action === 'store_true' ? f : `${f} ${meta(s)}`)).join(', ');
    };
    const column = Math.min(Math.max(...this.specs.map((s) => invocation(s).length + 2)) + 2, 24);
    const line = (s: ArgSpec) =>
      s === HELP
        ? `  ${invocation(s).padEnd(column - 4)}  show this help message and exit`
        : `  ${invocation(s)}`;
    const pos = this.specs.filter((s) => !s.flags.length).map(line);
    const sections = [this.usage()];
    if (pos.length) sections.push(['positional arguments:', ...pos].join('\n'));
    sections.push(['options:', ...this.specs.filter((s) => s.flags.length).map(line)].join('\n'));
    return sections.join('\n\n');
  }

  private fail(message: string): never {
    throw new PySystemExit(`${this.usage()}\n${this.prog}: error: ${message}`, 2);
  }

  private argName(spec: ArgSpec): string {
    return spec.flags.length ? spec.flags.join('/') : spec.dest;
  }

  /** argparse's `_parse_optional`: the option a word names, null for a positional word. */
  private optionOf(word: string): OptionHit | 'unknown' | null {
    if (!word.startsWith('-')) return null;
    const byFlag = (flag: string) => this.specs.find((s) => s.flags.includes(flag));
    const exact = byFlag(word);
    if (exact) return { spec: exact, flag: word, explicit: undefined };
    if (word.length === 1) return null;
    const [head, value] = splitOnce(word, '=');
    const withValue = value !== undefined ? byFlag(head) : undefined;
    if (withValue) return { spec: withValue, flag: head, explicit: value };
    const hits: OptionHit[] = [];
    for (const spec of this.specs)
      for (const flag of spec.flags) {
        if (word.startsWith('--')) {
          if (flag.startsWith(head)) hits.push({ spec, flag, explicit: value });
        } else if (flag === word.slice(0, 2)) hits.push({ spec, flag, explicit: word.slice(2) });
        else if (flag.startsWith(word)) hits.push({ spec, flag, explicit: undefined });
      }
    if (hits.length > 1)
      this.fail(`ambiguous option: ${head} could match ${hits.map((h) => h.flag).join(', ')}`);
    if (hits[0]) return hits[0];
    if (/^-\d+$|^-\d*\.\d+$/.test(word) || word.includes(' ')) return null;
    return 'unknown';
  }

  /** `vars(parser.parse_args(argv))`: every dest, unset ones null or false. */
  parse(argv: readonly string[]): Record<string, ArgValue> {
    const ns: Record<string, ArgValue> = {};
    for (const s of this.specs.slice(1)) ns[s.dest] ??= s.action === 'store_true' ? false : null;
    // classify every word first, as argparse does (an ambiguous prefix fails before anything)
    const words: string[] = [];
    const kinds: (OptionHit | 'unknown' | null)[] = [];
    let rest = false;
    for (const w of argv) {
      if (!rest && w === '--') {
        rest = true;
        continue;
      }
      words.push(w);
      kinds.push(rest ? null : this.optionOf(w));
    }
    const positionals = this.specs.filter((s) => !s.flags.length);
    const seen = new Set<ArgSpec>();
    const extras: string[] = [];
    const store = (spec: ArgSpec, value: string | true) => {
      if (spec.choices && typeof value === 'string' && !spec.choices.includes(value))
        this.fail(
          `argument ${this.argName(spec)}: invalid choice: '${value}' (choose from ${spec.choices.map((c) => `'${c}'`).join(', ')})`,
        );
      seen.add(spec);
      if (spec.action === 'append')
        ns[spec.dest] = [...((ns[spec.dest] as string[] | null) ?? []), String(value)];
      else ns[spec.dest] = value;
    };
    let i = 0;
    while (i < words.length) {
      const kind = kinds[i] ?? null;
      if (kind === null) {
        // a run of positional words: the next positional takes one, the rest are extras
        const next = positionals.shift();
        const word = words[i] as string;
        if (next) store(next, word);
        else extras.push(word);
        i++;
        continue;
      }
      if (kind === 'unknown') {
        extras.push(words[i] as string);
        i++;
        continue;
      }
      const { spec, explicit } = kind;
      if (spec === HELP) {
        if (explicit) this.fail(`argument -h/--help: ignored explicit argument '${explicit}'`);
        throw new PySystemExit(this.help(), 0);
      }
      if (spec.action === 'store_true') {
        if (explicit !== undefined)
          this.fail(`argument ${this.argName(spec)}: ignored explicit argument '${explicit}'`);
        store(spec, true);
        i++;
        continue;
      }
      if (explicit !== undefined) {
        store(spec, explicit);
        i++;
        continue;
      }
      if (i + 1 >= words.length || kinds[i + 1] !== null)
        this.fail(`argument ${this.argName(spec)}: expected one argument`);
      store(spec, words[i + 1] as string);
      i += 2;
    }
    const missing = this.specs.filter((s) => (s.required || !s.flags.length) && !seen.has(s));
    if (missing.length)
      this.fail(`the following arguments are required: ${missing.map((s) => this.argName(s)).join(', ')}`);
    if (extras.length) this.fail(`unrecognized arguments: ${extras.join(' ')}`);
    return ns;
  }
}
