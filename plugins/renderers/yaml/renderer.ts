/**
 * The `yaml` renderer (salt/renderers/yaml.py): text → data with Salt's YAML 1.1 loader; an
 * empty document renders as `{}`, as in Salt.
 */
import type { RendererDef } from '../types.js';
import { loadYaml } from './load.js';

export const yamlRenderer: RendererDef = {
  name: 'yaml',
  async render(input, _context, step) {
    if (typeof input !== 'string') return input;
    const data = loadYaml(input, {
      path: step.path,
      chain: step.chain,
      maxNodes: step.limits.maxYamlNodes,
      ordered: true,
    });
    return data === null || data === undefined || data === '' ? {} : data;
  },
};
