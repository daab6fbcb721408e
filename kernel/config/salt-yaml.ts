/**
 * Reads Salt config files the way Salt's `_read_conf_file` does: YAML 1.1 (PyYAML), so
 * `yes`/`no`/`on`/`off` are booleans; duplicate keys are errors; timestamps stay strings and
 * zero-padded integers are decimal (`SaltYamlSafeLoader`); an empty file is `{}`; anything but
 * a mapping is an error; a numeric `id` becomes a string.
 */
import { readFile } from 'node:fs/promises';
import type { ScalarTag, Tags } from 'yaml';
import { SALT_ERR_CONFIG_LOAD } from '../errors.js';

type YamlModule = typeof import('yaml');

let yamlModule: Promise<YamlModule> | undefined;

function loadYamlModule(): Promise<YamlModule> {
  yamlModule ??= import('yaml');
  return yamlModule;
}

/** Base-60 digits (`1:30` → 90), as PyYAML reads them. */
function sexagesimal(value: string): number {
  return value.split(':').reduce((total, part) => total * 60 + Number(part), 0);
}

/** PyYAML's implicit booleans (no `y`/`n`, unlike the YAML 1.1 spec). */
const pyBool: ScalarTag = {
  tag: 'tag:yaml.org,2002:bool',
  default: true,
  test: /^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$/,
  resolve: (value) => /^(?:y|t|o[nN])/i.test(value),
};

/** PyYAML's implicit integers, with Salt's twist: a leading zero is decimal, not octal. */
const pyInt: ScalarTag = {
  tag: 'tag:yaml.org,2002:int',
  default: true,
  test: /^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$/,
  resolve: (raw) => {
    // SaltYamlSafeLoader strips the leading zeros of an unsigned `0…` integer.
    const stripped =
      raw !== '0' && raw.startsWith('0') && !/^0[bx]/.test(raw) ? raw.replace(/^0+/, '') || '0' : raw;
    let value = stripped.replace(/_/g, '');
    const sign = value.startsWith('-') ? -1 : 1;
    if (/^[-+]/.test(value)) value = value.slice(1);
    if (value === '0') return 0;
    if (value.startsWith('0b')) return sign * Number.parseInt(value.slice(2), 2);
    if (value.startsWith('0x')) return sign * Number.parseInt(value.slice(2), 16);
    if (value.startsWith('0')) return sign * Number.parseInt(value, 8);
    if (value.includes(':')) return sign * sexagesimal(value);
    return sign * Number.parseInt(value, 10);
  },
};

/** PyYAML's implicit floats: a dot is required, an exponent needs its sign. */
const pyFloat: ScalarTag = {
  tag: 'tag:yaml.org,2002:float',
  default: true,
  test: /^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/,
  resolve: (raw) => {
    let value = raw.replace(/_/g, '').toLowerCase();
    const sign = value.startsWith('-') ? -1 : 1;
    if (/^[-+]/.test(value)) value = value.slice(1);
    if (value === '.inf') return sign * Number.POSITIVE_INFINITY;
    if (value === '.nan') return Number.NaN;
    if (value.includes(':')) return sign * sexagesimal(value);
    return sign * Number(value);
  },
};

const REPLACED = new Set(['tag:yaml.org,2002:bool', 'tag:yaml.org,2002:int', 'tag:yaml.org,2002:float']);

/**
 * The YAML 1.1 schema with PyYAML's implicit types. The library's own bool/int/float/timestamp
 * tags stay for explicit `!!tags` only; plain timestamps stay strings, as in Salt.
 */
function saltTags(tags: Tags): Tags {
  const kept = tags.map((tag) => {
    if (typeof tag !== 'object') return tag;
    if (REPLACED.has(tag.tag) || tag.tag === 'tag:yaml.org,2002:timestamp') return { ...tag, default: false };
    return tag;
  });
  return [pyBool, pyInt, pyFloat, ...kept] as Tags;
}

/** Parses YAML text as Salt does; throws the parser's error or a TypeError for non-mappings. */
export async function parseSaltYaml(text: string): Promise<Record<string, unknown>> {
  const { parse } = await loadYamlModule();
  const data: unknown = parse(text, { version: '1.1', customTags: saltTags, uniqueKeys: true });
  return asConfigObject(data);
}

/** Salt's post-read checks: `null` → `{}`, non-mappings rejected, numeric `id` → string. */
export function asConfigObject(data: unknown): Record<string, unknown> {
  if (data === null || data === undefined) return {};
  if (typeof data !== 'object' || Array.isArray(data)) {
    const what = Array.isArray(data) ? 'a list' : `a ${typeof data}`;
    throw new TypeError(`the config should be a mapping of options, not ${what}`);
  }
  const config = data as Record<string, unknown>;
  const id = config.id;
  if (typeof id === 'number' || typeof id === 'boolean') return { ...config, id: String(id) };
  return config;
}

/** Reads and parses one YAML config file; any failure is `SALT_ERR_CONFIG_LOAD` with `cause`. */
export async function readSaltYamlFile(path: string): Promise<Record<string, unknown>> {
  try {
    return await parseSaltYaml(await readFile(path, 'utf8'));
  } catch (cause) {
    throw new SALT_ERR_CONFIG_LOAD(path, { cause });
  }
}

/** Reads and parses one JSON config file; any failure is `SALT_ERR_CONFIG_LOAD` with `cause`. */
export async function readJsonFile(path: string): Promise<Record<string, unknown>> {
  try {
    const text = await readFile(path, 'utf8');
    return asConfigObject(text.trim() === '' ? null : JSON.parse(text));
  } catch (cause) {
    throw new SALT_ERR_CONFIG_LOAD(path, { cause });
  }
}
