/**
 * The part of Python's `configparser.ConfigParser` Salt's modules read supervisord's config
 * with: `[section]` headers, `key = value` or `key: value` (keys lower-cased), whole-line `#`/`;`
 * comments, indented continuation lines, `[DEFAULT]` values seen by every section, and
 * `%(name)s` interpolation (`%%` is a percent sign).
 */
import { SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';

export type ConfigSections = Map<string, Map<string, string>>;

/** The sections in file order (DEFAULT apart), each its keys in file order. */
export function parseConfig(text: string): { defaults: Map<string, string>; sections: ConfigSections } {
  const defaults = new Map<string, string>();
  const sections: ConfigSections = new Map();
  let current: Map<string, string> | undefined;
  let lastKey: string | undefined;
  for (const raw of text.split(/\r?\n/)) {
    const trimmed = raw.trim();
    if (trimmed === '' || trimmed.startsWith('#') || trimmed.startsWith(';')) {
      lastKey = undefined;
      continue;
    }
    if (/^\s/.test(raw) && current && lastKey !== undefined) {
      current.set(lastKey, `${current.get(lastKey)}\n${trimmed}`);
      continue;
    }
    const header = /^\[([^\]]+)\]/.exec(trimmed);
    if (header) {
      const name = header[1] as string;
      current = name === 'DEFAULT' ? defaults : (sections.get(name) ?? new Map());
      if (name !== 'DEFAULT') sections.set(name, current);
      lastKey = undefined;
      continue;
    }
    const sep = /[=:]/.exec(trimmed);
    if (!current || !sep) continue;
    lastKey = trimmed.slice(0, sep.index).trim().toLowerCase();
    current.set(lastKey, trimmed.slice(sep.index + 1).trim());
  }
  return { defaults, sections };
}

/** `config.items(section)`: DEFAULT's keys then the section's, every value interpolated. */
export function sectionItems(
  parsed: { defaults: Map<string, string>; sections: ConfigSections },
  section: string,
): Array<[string, string]> {
  const merged = new Map([...parsed.defaults, ...(parsed.sections.get(section) ?? [])]);
  const interpolate = (value: string, depth: number): string =>
    value.replace(/%(%|\(([^)]*)\)s)/g, (_m, what: string, key: string | undefined) => {
      if (what === '%') return '%';
      const found = merged.get((key ?? '').toLowerCase());
      if (found === undefined || depth > 10)
        throw new SALT_ERR_EXEC_COMMAND(
          `Bad value substitution: option '${key}' in section '${section}' contains an interpolation key '${key}' which is not a valid option name.`,
        );
      return interpolate(found, depth + 1);
    });
  return [...merged].map(([k, v]) => [k, interpolate(v, 0)]);
}
