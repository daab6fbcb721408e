/**
 * PyYAML's YAML 1.1 implicit resolver for plain scalars (`yaml/resolver.py`) with Salt's
 * constructors on top (`salt/utils/yamlloader.py`): `yes`/`no`/`on`/`off` booleans, `0644` read
 * as the decimal 644 (Salt strips the leading zeros so modes stay as written), sexagesimal
 * `1:20` = 80, `1_000`, `.inf`, and timestamps left as the strings Salt returns.
 */
import { SaltFloat } from '../../../kernel/util.js';

const BOOL = /^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$/;
const TRUE = /^(?:yes|Yes|YES|true|True|TRUE|on|On|ON)$/;
const NULL = /^(?:~|null|Null|NULL|)$/;
const INT =
  /^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$/;
const FLOAT =
  /^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9_]+(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;

const TIMESTAMP =
  /^(?:[0-9]{4}-[0-9]{2}-[0-9]{2}|[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?)$/;

/**
 * Matches every plain scalar PyYAML's resolver reads as something other than a string (bool,
 * null, int, float, timestamp, the merge key `<<`, the value key `=`): the strings PyYAML's
 * dumper must quote.
 */
export const PYYAML_NON_STR = new RegExp(
  [BOOL, NULL, INT, FLOAT, TIMESTAMP, /^(?:<<|=)$/].map((r) => `(?:${r.source})`).join('|'),
);

/** The tag PyYAML's resolver gives a plain scalar. */
export function implicitTag(text: string): 'bool' | 'null' | 'int' | 'float' | 'str' {
  if (BOOL.test(text)) return 'bool';
  if (NULL.test(text)) return 'null';
  if (INT.test(text)) return 'int';
  if (FLOAT.test(text)) return 'float';
  return 'str';
}

function sexagesimal(body: string): number {
  let value = 0;
  for (const part of body.split(':')) value = value * 60 + Number(part);
  return value;
}

/** Salt's int constructor: leading zeros dropped (so `0644` is 644), then PyYAML's rules. */
export function constructInt(text: string): number {
  let s = text.replace(/_/g, '');
  let sign = 1;
  if (s[0] === '-' || s[0] === '+') {
    if (s[0] === '-') sign = -1;
    s = s.slice(1);
  }
  if (s !== '0' && s.startsWith('0') && !s.startsWith('0b') && !s.startsWith('0x'))
    s = s.replace(/^0+/, '') || '0';
  let n: number;
  if (s.startsWith('0b')) n = Number.parseInt(s.slice(2), 2);
  else if (s.startsWith('0x')) n = Number.parseInt(s.slice(2), 16);
  else if (s.includes(':')) n = sexagesimal(s);
  else n = Number(s);
  return sign * n;
}

/** PyYAML's float constructor; an integral value is a {@link SaltFloat}, so it keeps its `.0`. */
export function constructFloat(text: string): number | SaltFloat {
  const n = floatValue(text);
  return Number.isInteger(n) ? new SaltFloat(n) : n;
}

function floatValue(text: string): number {
  let s = text.replace(/_/g, '').toLowerCase();
  let sign = 1;
  if (s[0] === '-' || s[0] === '+') {
    if (s[0] === '-') sign = -1;
    s = s.slice(1);
  }
  if (s === '.inf') return sign * Number.POSITIVE_INFINITY;
  if (s === '.nan') return Number.NaN;
  if (s.includes(':')) return sign * sexagesimal(s);
  return sign * Number(s);
}

export function constructBool(text: string): boolean {
  return TRUE.test(text);
}

/** A plain scalar's value as Salt's loader gives it. */
export function resolvePlain(text: string): unknown {
  switch (implicitTag(text)) {
    case 'bool':
      return constructBool(text);
    case 'null':
      return null;
    case 'int':
      return constructInt(text);
    case 'float':
      return constructFloat(text);
    default:
      return text;
  }
}
