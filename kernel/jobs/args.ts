/**
 * Salt's argument conventions, both ends of the wire.
 *
 * CLI side (`salt/utils/args.py` `parse_input` + `condition_input`): the words after the
 * function become typed positionals plus, when any `k=v` word is present, ONE trailing map
 * `{ __kwarg__: true, ...keywords }` — observed on the wire as
 * `["a", 1, {"__kwarg__": true, "k": "v"}]` for `salt '*' test.arg a 1 k=v`.
 *
 * Minion side (`salt/minion.py` `load_args_and_kwargs` and Python's own call rules):
 * {@link splitArgs} takes that list apart and {@link bindArgs} binds it to a function spec.
 */
import type { z } from 'zod';
import { SALT_ERR_EXEC_INTERNAL, SALT_ERR_INVOCATION, type SaltError } from '../errors.js';
import type { ExtraArgs, FunctionSpec } from '../loader/define.js';
import { pyStr } from '../python/repr.js';
import { SaltFloat } from '../serial/salt-types.js';
import { yamlifyArg } from './yamlify-arg.js';

export { yamlifyArg } from './yamlify-arg.js';

/** Key that marks the keyword map in a published `arg` list. */
export const KWARG_MARKER = '__kwarg__';
/** Prefix of the publish data Salt hands to functions that take `**kwargs`. */
export const PUB_PREFIX = '__pub_';

// Salt's KWARG_REGEX `^([^\d\W][\w.-]*)=(?!=)(.*)$` with Python's Unicode `\w`, `\d`,
// and Python's `.` (anything but \n) and `$` (end, or before one final \n).
const KWARG_RE = /^([\p{L}\p{Nl}\p{No}_][\p{L}\p{N}_.-]*)=(?!=)([^\n]*)\n?$/u;

/** Salt's `parse_kwarg`: `[name, rawValue]` for a `name=value` word, or `null`. */
export function parseKwarg(word: string): [string, string] | null {
  const m = KWARG_RE.exec(word);
  return m ? [m[1] ?? '', m[2] ?? ''] : null;
}

/** Salt's `salt.utils.jid.is_jid` to the letter (`int()` of the first 20 characters), for argument typing; `isJid` (jid.ts) is the strict form that paths are built from. */
export function isJidLike(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  if (value.length !== 20 && (value.length <= 21 || value[20] !== '_')) return false;
  return /^\s*[-+]?\d+(?:_\d+)*\s*$/.test(value.slice(0, 20));
}

/** Options of {@link parseCliArgs}. */
export interface ParseCliOptions {
  /** Keyword names whose values stay raw strings (`salt --no-parse=a,b`, `SALT_NO_PARSE`). */
  noParse?: readonly string[];
}

/**
 * What the `salt` CLI publishes for the words after the function (`parse_input` then
 * `condition_input`): typed positionals, then one `__kwarg__` map if any keyword was given.
 * A 20-digit integer positional goes out as a string, as Salt does for jids.
 * @example parseCliArgs(['a', '1', 'k=v']) // ['a', 1, { __kwarg__: true, k: 'v' }]
 */
export function parseCliArgs(argv: readonly string[], options: ParseCliOptions = {}): unknown[] {
  const noParse = new Set(options.noParse ?? []);
  const args: unknown[] = [];
  const kwargs: Record<string, unknown> = {};
  let haveKw = false;
  for (const word of argv) {
    const kw = parseKwarg(word);
    if (kw) {
      const [name, raw] = kw;
      kwargs[name] = noParse.has(name) ? raw : yamlifyArg(raw);
      haveKw = true;
    } else {
      args.push(yamlifyArg(word));
    }
  }
  return conditionInput(args, haveKw ? kwargs : undefined);
}

/**
 * Salt's `condition_input`: jid-like integers become strings and keywords are appended as
 * one `{ __kwarg__: true, ... }` map (omitted when there are none).
 */
export function conditionInput(args: readonly unknown[], kwargs?: Record<string, unknown>): unknown[] {
  const out = args.map((a) =>
    (typeof a === 'bigint' || typeof a === 'number') && isJidLike(String(a)) ? String(a) : a,
  );
  if (kwargs && Object.keys(kwargs).length > 0) out.push({ [KWARG_MARKER]: true, ...kwargs });
  return out;
}

function isKwargMap(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    !(value instanceof Uint8Array) &&
    (value as Record<string, unknown>)[KWARG_MARKER] === true
  );
}

/**
 * Minion side of `load_args_and_kwargs`: maps with `__kwarg__: true` are keywords, a string
 * positional of the form `name=value` is a keyword too (its value YAML-typed), everything
 * else stays positional and untouched. Later keywords win.
 * @example splitArgs(['a', 1, { __kwarg__: true, k: 'v' }]) // { args: ['a', 1], kwargs: { k: 'v' } }
 */
export function splitArgs(arg: readonly unknown[]): { args: unknown[]; kwargs: Record<string, unknown> } {
  const args: unknown[] = [];
  const kwargs: Record<string, unknown> = {};
  for (const item of arg) {
    if (isKwargMap(item)) {
      for (const [k, v] of Object.entries(item)) if (k !== KWARG_MARKER) kwargs[k] = v;
      continue;
    }
    const kw = typeof item === 'string' ? parseKwarg(item) : null;
    if (kw) kwargs[kw[0]] = yamlifyArg(kw[1]);
    else args.push(item);
  }
  return { args, kwargs };
}

/**
 * The `__pub_*` keywords Salt adds for a function that takes `**kwargs`: one per key of the
 * publish data (`__pub_jid`, `__pub_fun`, `__pub_user`, ...). Merge them over the caller's
 * keywords before {@link bindArgs}; functions without `varkw` never see them.
 */
export function pubKwargs(data: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(data)) out[`${PUB_PREFIX}${k}`] = v;
  return out;
}

/**
 * A function's doc as Salt shows its Python `__doc__`: after a newline, each line indented
 * four spaces (blank lines left empty), and the closing quotes' indentation at the end.
 */
export function pyDocstring(doc: string): string {
  return `\n${doc
    .split('\n')
    .map((l) => (l ? `    ${l}` : ''))
    .join('\n')}\n    `;
}

/** Which of Salt's error paths an invocation error follows (see {@link formatInvocationError}). */
export type InvocationKind = 'type' | 'kwargs' | 'schema';

/** `details` of a `SALT_ERR_INVOCATION` thrown by {@link bindArgs}. */
export interface InvocationDetails {
  kind: InvocationKind;
  fun: string;
  issues?: unknown[];
}

function invocation(fun: string, kind: InvocationKind, message: string, issues?: unknown[]): SaltError {
  const details: InvocationDetails = issues ? { kind, fun, issues } : { kind, fun };
  return new SALT_ERR_INVOCATION(message, { details });
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function quoteList(names: string[]): string {
  const q = names.map((n) => `'${n}'`);
  if (q.length <= 1) return q.join('');
  if (q.length === 2) return `${q[0]} and ${q[1]}`;
  return `${q.slice(0, -1).join(', ')}, and ${q[q.length - 1]}`;
}

const optionalCache = new WeakMap<z.ZodObject, Set<string>>();

/** Keys of the schema that may be left out (optional, defaulted, or accepting undefined). */
export function optionalKeys(schema: z.ZodObject): Set<string> {
  let set = optionalCache.get(schema);
  if (!set) {
    set = new Set();
    for (const key of Object.keys(schema.shape)) {
      const field = (schema.shape as Record<string, z.ZodType>)[key];
      const optin = (field as { _zod?: { optin?: string } } | undefined)?._zod?.optin;
      if (optin === 'optional' || optin === 'defaulted') set.add(key);
    }
    optionalCache.set(schema, set);
  }
  return set;
}

/**
 * Binds positionals and keywords to a function spec the way Python binds a call, then
 * validates with the spec's zod schema. Positionals fill the schema's keys in order;
 * keywords fill them by name; leftovers go to `extra` when the spec has `varargs`/`varkw`.
 * `__pub_*` keywords are dropped unless the spec has `varkw`.
 *
 * Throws `SALT_ERR_INVOCATION` (with {@link InvocationDetails}) using Salt's and CPython's
 * wording: `The following keyword arguments are not valid: x=1`, `echo() got multiple
 * values for argument 'text'`, `echo() takes 1 positional argument but 2 were given`,
 * `echo() missing 1 required positional argument: 'text'`.
 */
export function bindArgs(
  spec: FunctionSpec,
  fun: string,
  args: readonly unknown[],
  kwargs: Readonly<Record<string, unknown>>,
): { bound: Record<string, unknown>; extra: ExtraArgs } {
  const name = spec.pyName ?? (fun.includes('.') ? fun.slice(fun.lastIndexOf('.') + 1) : fun);
  const schema = spec.args;
  if (typeof schema === 'function') {
    // a spec straight from a module file: the loader builds its schema (resolveFunctionArgs)
    throw new SALT_ERR_EXEC_INTERNAL(
      `${fun}: argument schema not built; look the function up through the loader`,
    );
  }
  const keys = schema ? Object.keys(schema.shape) : [];
  const keySet = new Set(keys);
  const extra: ExtraArgs = { args: [], kwargs: {} };
  const bound: Record<string, unknown> = {};

  // load_args_and_kwargs: keywords the function cannot take, all reported at once.
  const invalid: string[] = [];
  const keywords: [string, unknown][] = [];
  for (const [k, v] of Object.entries(kwargs)) {
    if (keySet.has(k) || spec.varkw) keywords.push([k, v]);
    else if (!k.startsWith(PUB_PREFIX)) invalid.push(`${k}=${pyStr(v)}`);
  }
  if (invalid.length > 0) {
    throw invocation(fun, 'kwargs', `The following keyword arguments are not valid: ${invalid.join(', ')}`);
  }

  args.forEach((value, i) => {
    const key = keys[i];
    if (key !== undefined) bound[key] = value;
    else extra.args.push(value);
  });
  for (const [k, v] of keywords) {
    if (keySet.has(k)) {
      if (k in bound) throw invocation(fun, 'type', `${name}() got multiple values for argument '${k}'`);
      bound[k] = v;
    } else {
      extra.kwargs[k] = v;
    }
  }

  const optional = schema ? optionalKeys(schema) : new Set<string>();
  if (extra.args.length > 0 && !spec.varargs) {
    const required = keys.filter((k) => !optional.has(k)).length;
    const sig = required === keys.length ? String(keys.length) : `from ${required} to ${keys.length}`;
    const given = args.length;
    throw invocation(
      fun,
      'type',
      `${name}() takes ${sig} positional argument${sig === '1' ? '' : 's'} but ${given} ${given === 1 ? 'was' : 'were'} given`,
    );
  }
  const missing = keys.filter((k) => !optional.has(k) && bound[k] === undefined);
  if (missing.length > 0) {
    throw invocation(
      fun,
      'type',
      `${name}() missing ${plural(missing.length, 'required positional argument')}: ${quoteList(missing)}`,
    );
  }

  if (!schema) return { bound, extra };
  let parsed = schema.safeParse(bound);
  if (!parsed.success) {
    // an integral float (`1.0` from YAML or the CLI) where a schema wants a plain number
    const plain = Object.entries(bound).map(([k, v]) => [k, v instanceof SaltFloat ? v.value : v]);
    if (Object.values(bound).some((v) => v instanceof SaltFloat))
      parsed = schema.safeParse(Object.fromEntries(plain));
  }
  if (!parsed.success) {
    const issues = parsed.error.issues;
    const text = issues
      .map((issue) => {
        const where = issue.path.length > 0 ? `argument '${issue.path.map(String).join('.')}'` : 'arguments';
        return `${where}: ${issue.message}`;
      })
      .join('; ');
    throw invocation(fun, 'schema', `${name}() got an invalid ${text}`, issues);
  }
  return { bound: parsed.data as Record<string, unknown>, extra };
}

/**
 * The job return Salt shows for an invocation error: `Passed invalid arguments to
 * test.echo: <message>\n<doc>` for call-shape and schema errors (Salt's `TypeError` path),
 * `ERROR executing 'test.echo': <message>` for invalid keywords (its `SaltInvocationError`
 * path, also used for any other `SALT_ERR_INVOCATION`).
 */
export function formatInvocationError(fun: string, error: SaltError, doc?: string): string {
  const details = error.details as Partial<InvocationDetails> | undefined;
  if (details?.kind === 'type' || details?.kind === 'schema') {
    return `Passed invalid arguments to ${fun}: ${error.message}\n${doc ? pyDocstring(doc) : ''}`;
  }
  return `ERROR executing '${fun}': ${error.message}`;
}
