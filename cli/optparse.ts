/**
 * Command-line errors and option values as Salt's optparse gives them (Salt's
 * `salt/utils/parsers.py` `OptionParser.error` over Python's `optparse`): `Usage: ...` and
 * `<prog>: error: <message>` on stderr, exit code 64 (`EX_USAGE`). The CLIs read their
 * options with commander; this maps commander's errors to optparse's texts.
 */
import type { Command, CommanderError } from 'commander';
import { EX_USAGE, usageError } from './usage-error.js';

/** What one CLI prints its usage errors with. */
export interface UsageSpec {
  prog: string;
  /** The usage line without `Usage: `, e.g. `salt-key [options]`. */
  usage: string;
}

/** Python's `repr()` of a string. */
function pyStr(s: string): string {
  const q = s.includes("'") && !s.includes('"') ? '"' : "'";
  const body = s
    .replace(/\\/g, '\\\\')
    .replace(/\n/g, '\\n')
    .replace(/\r/g, '\\r')
    .replace(/\t/g, '\\t')
    .replaceAll(q, `\\${q}`);
  return `${q}${body}${q}`;
}

/** An option value optparse refuses: `option -t: invalid integer value: 'abc'`. */
export class OptionValueError extends Error {
  constructor(
    readonly type: 'integer' | 'floating-point',
    readonly value: string,
    readonly forms: readonly string[],
  ) {
    super(`invalid ${type} value: ${pyStr(value)}`);
  }
}

/** Python's `int(text, radix)`: digits with underscores between them, spaces around. */
function pyIntText(text: string, radix: number): number | undefined {
  const digits = { 2: '01', 8: '0-7', 10: '0-9', 16: '0-9a-fA-F' }[radix];
  const m = new RegExp(`^\\s*([+-]?)([${digits}](?:_?[${digits}])*)\\s*$`).exec(text);
  if (!m) return undefined;
  const n = Number.parseInt(m[2]!.replace(/_/g, ''), radix);
  return m[1] === '-' ? -n : n;
}

/** optparse's `_parse_num` for `type="int"`: `0x` hex, `0b` binary, a leading `0` octal. */
export function optparseInt(value: string): number | undefined {
  const head = value.slice(0, 2).toLowerCase();
  if (head === '0x') return pyIntText(value.slice(2), 16);
  if (head === '0b') return pyIntText(value.slice(2), 2);
  if (value.startsWith('0')) return pyIntText(value.slice(1) || '0', 8);
  return pyIntText(value, 10);
}

/** A parser for an integer option (`type="int"`); `flags` is its `-t, --timeout <n>` form. */
export function intOption(flags: string): (value: string) => number {
  const forms = flags.match(/--?[\w-]+/g) ?? [];
  return (value) => {
    const n = optparseInt(value);
    if (n === undefined) throw new OptionValueError('integer', value, forms);
    return n;
  };
}

/** A parser for a float option (`type="float"`). */
export function floatOption(flags: string): (value: string) => number {
  const forms = flags.match(/--?[\w-]+/g) ?? [];
  return (value) => {
    if (!/^\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?\s*$/i.test(value))
      throw new OptionValueError('floating-point', value, forms);
    return Number(value);
  };
}

/** The form of an option the user typed with `value` (`-t`, `-tabc`, `--timeout=abc`). */
function typedForm(argv: readonly string[], forms: readonly string[], value?: string): string {
  for (let i = argv.length - 1; i >= 0; i--) {
    const word = argv[i]!;
    for (const form of forms) {
      if (word === form && (value === undefined || argv[i + 1] === value)) return form;
      if (
        value !== undefined &&
        (word === `${form}=${value}` || (!form.startsWith('--') && word === form + value))
      )
        return form;
    }
  }
  return forms[forms.length - 1] ?? '';
}

/** optparse's text for a commander error, or undefined for help and version exits. */
function optparseMessage(err: CommanderError, cmd: Command, argv: readonly string[]): string | undefined {
  if (err.code === 'commander.unknownOption') {
    const flag = /unknown option '([^']+)'/.exec(err.message)?.[1] ?? '';
    return `no such option: ${flag.replace(/=.*$/, '')}`;
  }
  if (err.code === 'commander.optionMissingArgument') {
    const flags = /option '([^']+)'/.exec(err.message)?.[1] ?? '';
    const option = cmd.options.find((o) => o.flags === flags);
    const forms = [option?.short, option?.long].filter((f): f is string => Boolean(f));
    return `${typedForm(argv, forms)} option requires 1 argument`;
  }
  if (err.code === 'commander.excessArguments') return err.message.replace(/^error: /, '');
  return undefined;
}

/**
 * Parses `argv` with `cmd` (its options already declared), printing errors as optparse does:
 * an unknown option, a missing or bad value, exit 64. `--help` prints the help and exits 0.
 */
export function parseLikeOptparse(cmd: Command, spec: UsageSpec, argv: readonly string[]): Command {
  cmd
    .showSuggestionAfterError(false)
    .configureOutput({ outputError: () => undefined })
    .exitOverride((err) => {
      const message = optparseMessage(err, cmd, argv);
      if (message === undefined) process.exit(err.exitCode === 0 ? 0 : EX_USAGE);
      usageError(spec.prog, spec.usage, message);
    });
  try {
    cmd.parse([...argv]);
  } catch (err) {
    if (!(err instanceof OptionValueError)) throw err;
    usageError(spec.prog, spec.usage, `option ${typedForm(argv, err.forms, err.value)}: ${err.message}`);
  }
  return cmd;
}

/** Salt's exit when the command line lacks something: the help on stdout, `text` on stderr. */
export function helpExit(cmd: Command, text: string, code: number): never {
  process.stdout.write(cmd.helpInformation());
  process.stderr.write(text);
  process.exit(code);
}
