/**
 * Reads Salt config files the way Salt's `_read_conf_file` does: YAML 1.1 (PyYAML), so
 * `yes`/`no`/`on`/`off` are booleans; duplicate keys are errors; timestamps stay strings and
 * zero-padded integers are decimal (`SaltYamlSafeLoader`); an empty file is `{}`; anything but
 * a mapping is an error; a numeric `id` becomes a string.
 */
import { readFile } from 'node:fs/promises';
import type { Tags } from 'yaml';
import { SALT_ERR_CONFIG_LOAD } from '../errors.js';

type YamlModule = typeof import('yaml');

let yamlModule: Promise<YamlModule> | undefined;

function loadYamlModule(): Promise<YamlModule> {
  yamlModule ??= import('yaml');
  return yamlModule;
}

/** PyYAML-compatible tags: no timestamp type, no octal (Salt reads `0755` as 755). */
function saltTags(tags: Tags): Tags {
  return tags.filter((tag) => {
    if (typeof tag !== 'object') return true;
    if (tag.tag === 'tag:yaml.org,2002:timestamp') return false;
    return !(tag.tag === 'tag:yaml.org,2002:int' && 'format' in tag && tag.format === 'OCT');
  });
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
