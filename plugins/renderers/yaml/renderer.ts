/**
 * The `yaml` renderer (salt/renderers/yaml.py): text → data with Salt's YAML 1.1 loader; an
 * empty document renders as `{}`, as in Salt.
 */
import type { RendererDef, RenderStep } from '../types.js';
import { loadYaml, type YamlLoadOptions } from './load.js';

/** Loads a renderer step's YAML text as the YAML renderers do (`extra`: yamlex's tags and merge). */
export function renderYamlText(
  input: unknown,
  step: RenderStep,
  extra: Pick<YamlLoadOptions, 'tags' | 'merge'> = {},
): unknown {
  if (typeof input !== 'string') return input;
  const data = loadYaml(input, {
    path: step.path,
    chain: step.chain,
    maxNodes: step.limits.maxYamlNodes,
    ordered: true,
    ...extra,
  });
  return data === null || data === undefined || data === '' ? {} : data;
}

export const yamlRenderer: RendererDef = {
  name: 'yaml',
  async render(input, _context, step) {
    return renderYamlText(input, step);
  },
};
