/**
 * `--out=yaml` (`salt/output/yaml_out.py`): `salt.utils.yaml.safe_dump` in block style,
 * keys sorted, unicode kept, as PyYAML with libyaml writes it. `--out-indent N` sets the
 * indent (PyYAML only takes 2..9); a negative N switches to flow style (`{m1: true}`).
 */
import { pyRstrip } from '../kernel/python/index.js';
import { defineOutputter, type OutputOptions, type Outputter } from './types.js';
import { YamlEmitter } from './yaml-emitter.js';
import { represent } from './yaml-nodes.js';

/** The YAML text Salt prints for `data` (no trailing newline). */
export function renderYaml(data: unknown, opts: OutputOptions): string {
  const { indent } = opts;
  // Salt compares output_indent with 0: a config `pretty` or null fails there and prints nothing.
  if (indent === null || indent === 'pretty') return '';
  const flow = indent !== undefined && indent < 0;
  const emitter = new YamlEmitter(flow ? 0 : indent);
  return pyRstrip(emitter.document(represent(data, flow)));
}

/** `--out=yaml`. */
export const yamlOutputter: Outputter = defineOutputter({ name: 'yaml', render: renderYaml });
