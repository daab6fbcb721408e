/**
 * The minion's grains file (Salt's `<config dir>/grains`, YAML): static grains that
 * `grains.setval`/`delval` persist, read by every job (minion/grains-view.ts). Writes are
 * atomic (temp file + rename).
 */
import { mkdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { ScalarTag, Tags } from 'yaml';

/** Salt's grains file location: `conf_file`'s folder (or `conf_file` itself when it is a folder). */
export function grainsFilePath(opts: Readonly<Record<string, unknown>>): string {
  const conf = typeof opts.conf_file === 'string' ? opts.conf_file : undefined;
  if (conf === undefined) {
    const dir = typeof opts.config_dir === 'string' ? opts.config_dir : '/etc/salt';
    return join(dir, 'grains');
  }
  try {
    if (statSync(conf).isDirectory()) return join(conf, 'grains');
  } catch {
    // a conf_file that does not exist: its folder still holds the grains file
  }
  return join(dirname(conf), 'grains');
}

type YamlLib = typeof import('yaml');
let yamlLib: YamlLib | undefined;
/** The YAML library, loaded on first use: most minions have no grains file, and it costs ~30 ms to load. */
function yaml(): YamlLib {
  yamlLib ??= createRequire(import.meta.url)('yaml') as YamlLib;
  return yamlLib;
}

/** PyYAML's implicit booleans: YAML 1.1's words without `y`/`n`. */
const pyBool: ScalarTag = {
  tag: 'tag:yaml.org,2002:bool',
  default: true,
  test: /^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$/,
  resolve: (value) => /^(?:y|t|o[nN])/i.test(value),
  identify: (value) => typeof value === 'boolean',
  stringify: ({ value }) => (value ? 'true' : 'false'),
};

/** YAML 1.1 as PyYAML's safe_load reads it; timestamps stay strings (as Salt's loader keeps them). */
export function parseGrainsYaml(text: string): unknown {
  return yaml().parse(text, { version: '1.1', customTags: pyTags });
}

const TIMESTAMP = 'tag:yaml.org,2002:timestamp';
const BOOL = 'tag:yaml.org,2002:bool';

/** YAML 1.1's tags with PyYAML's booleans and no timestamps. */
function pyTags(tags: Tags): Tags {
  return [pyBool, ...tags.filter((t) => typeof t !== 'object' || (t.tag !== TIMESTAMP && t.tag !== BOOL))];
}

/** As {@link pyTags} with timestamps kept, so a string that reads as one is quoted as PyYAML quotes it. */
function pyWriteTags(tags: Tags): Tags {
  return [pyBool, ...tags.filter((t) => typeof t !== 'object' || t.tag !== BOOL)];
}

export interface GrainsFileRead {
  grains: Record<string, unknown>;
  /** Why the file was skipped (bad YAML), as Salt logs it. */
  error?: string;
}

function isMapping(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Reads the grains file: `{}` when absent, empty, not a mapping, or bad YAML (with `error`). */
export function readGrainsFile(path: string): GrainsFileRead {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return { grains: {} };
  }
  try {
    const data = parseGrainsYaml(text);
    return { grains: isMapping(data) ? data : {} };
  } catch (err) {
    return { grains: {}, error: `Bad syntax in grains file! Skipping. (${(err as Error).message})` };
  }
}

/** Writes the grains file as PyYAML's `safe_dump(default_flow_style=False)`: block style, sorted keys, list items level with their key. */
export function writeGrainsFile(path: string, grains: Readonly<Record<string, unknown>>): void {
  const text =
    Object.keys(grains).length === 0
      ? '{}\n'
      : yaml().stringify(grains, {
          sortMapEntries: true,
          version: '1.1',
          customTags: pyWriteTags,
          indentSeq: false,
          singleQuote: true,
        });
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
  try {
    writeFileSync(tmp, text, { mode: 0o644 });
    renameSync(tmp, path);
  } catch (err) {
    try {
      unlinkSync(tmp);
    } catch {
      // nothing to clean
    }
    throw err;
  }
}
