/**
 * Salt's `yamlify_arg` (`salt/utils/args.py`): how a CLI word becomes a typed value.
 *
 * Salt loads each word with PyYAML's YAML 1.1 safe loader as Salt customises it
 * (`salt/utils/yamlloader.py`): timestamps stay strings, and an int written with leading
 * zeros (`0755`) loses them and reads as decimal (755), while a signed one (`-0755`) is
 * still octal. The `yaml` package parses the structure; the scalar rules below are PyYAML's
 * implicit resolvers and constructors, so `yes` is true, `1e3` is a string, `1:30` is 90.
 */
import { createRequire } from 'node:module';
import type { DocumentOptions, ParseOptions, ScalarTag, SchemaOptions } from 'yaml';
import { pyStr } from '../python/repr.js';
import { float64, SaltFloat } from '../serial/index.js';

const BOOL_RE = /^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$/;
const NULL_RE = /^(?:~|null|Null|NULL|)$/;
const INT_RE =
  /^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$/;
const FLOAT_RE =
  /^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;

const TAG_NULL = 'tag:yaml.org,2002:null';
const TAG_BOOL = 'tag:yaml.org,2002:bool';
const TAG_INT = 'tag:yaml.org,2002:int';
const TAG_FLOAT = 'tag:yaml.org,2002:float';
const TAG_TIMESTAMP = 'tag:yaml.org,2002:timestamp';

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

function toIntValue(n: bigint): number | bigint {
  return n <= MAX_SAFE && n >= -MAX_SAFE ? Number(n) : n;
}

/** PyYAML `construct_yaml_int` after Salt's `construct_scalar` drops leading zeros. */
export function resolveYamlInt(source: string): number | bigint {
  let v = source;
  if (v !== '0' && v.startsWith('0') && !v.startsWith('0b') && !v.startsWith('0x')) {
    v = v.replace(/^0+/, '') || '0';
  }
  v = v.replace(/_/g, '');
  const negative = v.startsWith('-');
  if (v.startsWith('-') || v.startsWith('+')) v = v.slice(1);
  let n: bigint;
  if (v === '0') n = 0n;
  else if (v.startsWith('0b')) n = BigInt(`0b${v.slice(2)}`);
  else if (v.startsWith('0x')) n = BigInt(`0x${v.slice(2)}`);
  else if (v.startsWith('0')) n = BigInt(`0o${v.slice(1)}`);
  else if (v.includes(':')) {
    n = 0n;
    for (const part of v.split(':')) n = n * 60n + BigInt(part);
  } else {
    if (!/^\d+$/.test(v)) throw new SyntaxError(`invalid literal for int(): ${source}`);
    n = BigInt(v);
  }
  return toIntValue(negative ? -n : n);
}

/** PyYAML `construct_yaml_float`. Integral results are marked to travel as float 64. */
export function resolveYamlFloat(source: string): number | SaltFloat {
  let v = source.replace(/_/g, '').toLowerCase();
  const sign = v.startsWith('-') ? -1 : 1;
  if (v.startsWith('-') || v.startsWith('+')) v = v.slice(1);
  let n: number;
  if (v === '.inf' || v === 'inf' || v === 'infinity') n = sign * Number.POSITIVE_INFINITY;
  else if (v === '.nan' || v === 'nan') n = Number.NaN;
  else if (v.includes(':')) {
    n = 0;
    for (const part of v.split(':')) n = n * 60 + Number(part);
    n *= sign;
  } else {
    if (v.trim() === '' || Number.isNaN(Number(v)))
      throw new SyntaxError(`could not convert to float: ${source}`);
    n = sign * Number(v);
  }
  return Number.isInteger(n) ? float64(n) : n;
}

function resolveYamlBool(source: string): boolean {
  const v = source.toLowerCase();
  if (v === 'yes' || v === 'true' || v === 'on') return true;
  if (v === 'no' || v === 'false' || v === 'off') return false;
  throw new SyntaxError(`invalid bool: ${source}`);
}

// Implicit tags (plain scalars, matched by `test`), then explicit-only twins (`!!int "5"`),
// which the yaml package picks first for an explicit tag because they have no `test`.
const TAGS: ScalarTag[] = [
  { tag: TAG_BOOL, default: true, test: BOOL_RE, resolve: resolveYamlBool },
  { tag: TAG_FLOAT, default: true, test: FLOAT_RE, resolve: resolveYamlFloat },
  { tag: TAG_INT, default: true, test: INT_RE, resolve: resolveYamlInt },
  { tag: TAG_NULL, default: true, test: NULL_RE, resolve: () => null },
  { tag: TAG_BOOL, default: false, resolve: resolveYamlBool },
  { tag: TAG_FLOAT, default: false, resolve: resolveYamlFloat },
  { tag: TAG_INT, default: false, resolve: resolveYamlInt },
  { tag: TAG_NULL, default: false, resolve: () => null },
  // Salt constructs timestamps as their plain text.
  { tag: TAG_TIMESTAMP, default: false, resolve: (s) => s },
];

const OPTIONS: ParseOptions & DocumentOptions & SchemaOptions = {
  schema: 'failsafe',
  customTags: TAGS,
  version: '1.1',
  merge: true,
  uniqueKeys: true,
  strict: true,
  prettyErrors: false,
};

/**
 * Salt's `salt.utils.yaml.safe_load` for one CLI word. Throws on anything Salt's loader
 * would refuse (syntax errors, unknown tags, duplicate or unhashable keys).
 */
let yamlModule: typeof import('yaml') | undefined;

/** The `yaml` package, loaded on first need: most CLI words never need a YAML parser. */
function yaml(): typeof import('yaml') {
  yamlModule ??= createRequire(import.meta.url)('yaml') as typeof import('yaml');
  return yamlModule;
}

/**
 * A word YAML reads as one plain scalar with no structure (letters, digits and a few safe
 * punctuation marks, no `:`/`#`, no leading indicator, no surrounding space): its value is
 * found by the same implicit resolvers, in the same order, without a parser.
 */
const PLAIN_WORD = /^[A-Za-z0-9_./+~][A-Za-z0-9 _./+=,~-]*$/;

function resolvePlainWord(word: string): unknown {
  if (BOOL_RE.test(word)) return resolveYamlBool(word);
  if (FLOAT_RE.test(word)) return resolveYamlFloat(word);
  if (INT_RE.test(word)) return resolveYamlInt(word);
  if (NULL_RE.test(word)) return null;
  return word;
}

export function saltSafeLoad(src: string): unknown {
  const { isCollection, isPair, isScalar, parseDocument, visit } = yaml();
  const doc = parseDocument(src, OPTIONS);
  if (doc.errors.length > 0 || doc.warnings.length > 0) throw doc.errors[0] ?? doc.warnings[0];
  let bad = false;
  visit(doc, {
    Pair(_key, pair) {
      if (!isPair(pair)) return;
      if (isCollection(pair.key)) bad = true;
      // Object keys are strings here: a non-string key becomes Python's str() of it.
      if (isScalar(pair.key) && typeof pair.key.value !== 'string') pair.key.value = pyStr(pair.key.value);
    },
  });
  if (bad) throw new SyntaxError('found unacceptable key');
  return doc.toJS({ maxAliasCount: 100 });
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof SaltFloat);
}

/**
 * Salt's `yamlify_arg`: the typed value of one CLI word. Non-strings pass through.
 * @example yamlifyArg('1') // 1
 * @example yamlifyArg('{a: 1}') // { a: 1 }
 * @example yamlifyArg('0755') // 755, as Salt's loader reads it
 * @example yamlifyArg('foo #bar') // 'foo #bar'
 */
export function yamlifyArg(arg: unknown): unknown {
  if (typeof arg !== 'string') return arg;
  const stripped = arg.trim();
  if (stripped === '' || stripped === '---' || stripped === '...') return arg;
  if (arg.includes('_') && /^[0-9_]*$/.test(stripped)) return arg;
  if (arg.includes('\t') || arg.includes('\r') || arg.includes('\n')) return arg;
  if (arg === 'None') return null;
  if (PLAIN_WORD.test(arg) && !arg.endsWith(' ')) return resolvePlainWord(arg);
  try {
    if (arg.includes('#')) {
      const parsed = saltSafeLoad(arg);
      return typeof parsed === 'string' || parsed === null || parsed === undefined ? arg : parsed;
    }
    const value = arg === 'None' ? null : saltSafeLoad(arg);
    if (Array.isArray(value)) return arg.startsWith('[') ? value : arg;
    if (isPlainObject(value)) return arg.startsWith('{') ? value : arg;
    if (value === '' && (arg === '|' || arg === '!')) return arg;
    if ((value === null || value === undefined) && arg === '!') return arg;
    return value === undefined ? null : value;
  } catch {
    return arg;
  }
}
