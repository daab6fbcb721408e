/**
 * PyYAML's `safe_dump(data, default_flow_style=False)` as Salt modules return it with
 * `return_yaml`: block style, sorted keys, list items at their key's indentation, `{}` and
 * `[]` for empty collections.
 */
import { createRequire } from 'node:module';
import { SaltFloat } from '../kernel/util.js';

type YamlLib = typeof import('yaml');
let yamlLib: YamlLib | undefined;

/**
 * A `yaml.stringify` replacer that writes a whole float as PyYAML does (`1.0`, not `1`), so it
 * reads back a float.
 */
export function floatScalars(yaml: YamlLib): (key: unknown, value: unknown) => unknown {
  return (_key, value) => {
    if (!(value instanceof SaltFloat)) return value;
    const scalar = new yaml.Scalar(value.value);
    scalar.minFractionDigits = 1;
    return scalar;
  };
}

export function pyYamlDump(data: unknown): string {
  yamlLib ??= createRequire(import.meta.url)('yaml') as YamlLib;
  return yamlLib.stringify(data, floatScalars(yamlLib), {
    sortMapEntries: true,
    version: '1.1',
    indentSeq: false,
    singleQuote: true,
  });
}
