/**
 * PyYAML's `safe_dump(data, default_flow_style=False)` as Salt modules return it with
 * `return_yaml`: block style, sorted keys, list items at their key's indentation, `{}` and
 * `[]` for empty collections.
 */
import { createRequire } from 'node:module';

type YamlLib = typeof import('yaml');
let yamlLib: YamlLib | undefined;

export function pyYamlDump(data: unknown): string {
  yamlLib ??= createRequire(import.meta.url)('yaml') as YamlLib;
  return yamlLib.stringify(data, {
    sortMapEntries: true,
    version: '1.1',
    indentSeq: false,
    singleQuote: true,
  });
}
