/**
 * The representer half of Salt's yaml outputter: JS values to YAML nodes as PyYAML's
 * `SafeRepresenter` (Salt's `SafeOrderedDumper`) builds them, with the implicit-tag checks
 * of PyYAML's YAML 1.1 resolver that decide whether a scalar may print unquoted.
 */
import { pyDatetimeStr, pyFloatRepr, pyIntRepr, pySortedEntries, pyValue } from '../kernel/python/index.js';

const TAG = 'tag:yaml.org,2002:';

export interface ScalarNode {
  kind: 'scalar';
  tag: string;
  value: string;
  /** The scalar may be written plain: plain text resolves back to its own tag. */
  plainImplicit: boolean;
  /** The scalar may be written quoted without a tag: it is a str. */
  quotedImplicit: boolean;
  /** A requested block style (`|` for binary), else any. */
  style?: '|';
}

export interface SequenceNode {
  kind: 'seq';
  items: YamlNode[];
  flow: boolean;
}

export interface MappingNode {
  kind: 'map';
  pairs: Array<[YamlNode, YamlNode]>;
  flow: boolean;
}

export type YamlNode = ScalarNode | SequenceNode | MappingNode;

// PyYAML's implicit resolvers (yaml/resolver.py), keyed by the first characters they apply to.
const BOOL = /^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$/;
const FLOAT =
  /^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;
const INT =
  /^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$/;
const MERGE = /^(?:<<)$/;
const NULL = /^(?:~|null|Null|NULL|)$/;
const TIMESTAMP =
  /^(?:[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?)$/;
const VALUE = /^(?:=)$/;
const YAML = /^(?:!|&|\*)$/;

const RESOLVERS: ReadonlyArray<readonly [string, RegExp, string]> = [
  ['bool', BOOL, 'yYnNtTfFoO'],
  ['float', FLOAT, '-+0123456789.'],
  ['int', INT, '-+0123456789'],
  ['merge', MERGE, '<'],
  ['null', NULL, '~nN'],
  ['timestamp', TIMESTAMP, '0123456789'],
  ['value', VALUE, '='],
  ['yaml', YAML, '!&*'],
];

/** Python's `re.match(...$)`: `$` also matches before one final newline. */
function pyFullMatch(re: RegExp, s: string): boolean {
  return re.test(s) || (s.endsWith('\n') && re.test(s.slice(0, -1)));
}

/** The tag PyYAML's resolver gives a plain scalar with this text (`str` when none fits). */
export function resolvePlain(value: string): string {
  if (value === '') return `${TAG}null`;
  const first = value[0] ?? '';
  for (const [name, re, chars] of RESOLVERS) {
    if (chars.includes(first) && pyFullMatch(re, value)) return `${TAG}${name}`;
  }
  return `${TAG}str`;
}

function scalar(tagName: string, value: string, style?: '|'): ScalarNode {
  const tag = `${TAG}${tagName}`;
  const node: ScalarNode = {
    kind: 'scalar',
    tag,
    value,
    plainImplicit: resolvePlain(value) === tag,
    quotedImplicit: tagName === 'str',
  };
  if (style) node.style = style;
  return node;
}

/** SafeRepresenter.represent_float: `repr()` lower-cased, `.0` added before a bare exponent. */
function floatText(x: number): string {
  if (Number.isNaN(x)) return '.nan';
  if (x === Number.POSITIVE_INFINITY) return '.inf';
  if (x === Number.NEGATIVE_INFINITY) return '-.inf';
  const text = pyFloatRepr(x).toLowerCase();
  return !text.includes('.') && text.includes('e') ? text.replace('e', '.0e') : text;
}

/** Python's `base64.encodebytes`: lines of 76 characters, each ending in a newline. */
function encodebytes(b: Uint8Array): string {
  const text = Buffer.from(b).toString('base64');
  let out = '';
  for (let i = 0; i < text.length; i += 76) out += `${text.slice(i, i + 76)}\n`;
  return out;
}

/**
 * The YAML node for `v`: dict keys sorted (PyYAML's `sort_keys=True`) unless Python
 * cannot order them; unknown objects and Salt constants as `NULL` (Salt's undefined
 * representer); `flow` sets every collection's style.
 */
export function represent(v: unknown, flow: boolean): YamlNode {
  const p = pyValue(v);
  switch (p.kind) {
    case 'none':
      return scalar('null', 'null');
    case 'bool':
      return scalar('bool', p.value ? 'true' : 'false');
    case 'int':
      return scalar('int', pyIntRepr(p.value));
    case 'float':
      return scalar('float', floatText(p.value));
    case 'str':
      return scalar('str', p.value);
    case 'bytes':
      return scalar('binary', encodebytes(p.value), '|');
    case 'datetime':
      return scalar('timestamp', pyDatetimeStr(p.value));
    case 'list':
      return { kind: 'seq', items: p.value.map((x) => represent(x, flow)), flow };
    case 'dict': {
      const entries = pySortedEntries(p.value) ?? p.value;
      const pairs = entries.map(([k, x]): [YamlNode, YamlNode] => [represent(k, flow), represent(x, flow)]);
      return { kind: 'map', pairs, flow };
    }
    default:
      return scalar('null', 'NULL');
  }
}
