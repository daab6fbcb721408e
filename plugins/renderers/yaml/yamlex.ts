/**
 * The `yamlex` renderer (salt/renderers/yamlex.py over salt/serializers/yamlex.py): YAML where
 * a repeated key merges with the one before it instead of failing. `!aggregate` marks a value
 * to aggregate (lists join without repeats, mappings update), `!reset` on a key replaces. As
 * in Salt: a repeated mapping keeps the new one's keys (common keys merged again), any other
 * repeated value is the new one, except a plain list, which comes out empty (PyYAML fills it
 * only after Salt has copied it).
 */
import { markOrdered } from '../../../modules/_ordered.js';
import type { RendererDef } from '../types.js';
import { renderYamlText } from './renderer.js';

/** Values tagged `!aggregate`: a list, or a mapping. */
const aggregated = new WeakSet<object>();

function isMapping(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Salt's `!aggregate`: a mapping stays one, null is an empty list, a scalar a list of it. */
function markAggregate(v: unknown): unknown {
  const out = v === null ? [] : typeof v === 'object' ? v : [v];
  aggregated.add(out as object);
  return out;
}

/** Python's `==` on the loaded values, for a list's "not already in it". */
function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Salt's `aggregate(before, value)` with no deep marking (level False). */
export function aggregate(before: unknown, value: unknown): unknown {
  if (isMapping(before) && isMapping(value)) {
    const both = aggregated.has(before) && aggregated.has(value);
    const out: Record<string, unknown> = both ? { ...before } : { ...value };
    for (const [k, v] of Object.entries(value)) out[k] = k in before ? aggregate(before[k], v) : v;
    if (both) aggregated.add(out);
    return markOrdered(out);
  }
  if (Array.isArray(before) && Array.isArray(value) && aggregated.has(before) && aggregated.has(value)) {
    const out = [...before];
    for (const v of value) if (!before.some((b) => same(b, v))) out.push(v);
    aggregated.add(out);
    return out;
  }
  if (Array.isArray(value) && !aggregated.has(value)) return [];
  return value;
}

const TAGS: ReadonlyMap<string, (v: unknown) => unknown> = new Map([
  ['!aggregate', markAggregate],
  ['!reset', (v: unknown) => v],
]);

export const yamlexRenderer: RendererDef = {
  name: 'yamlex',
  async render(input, _context, step) {
    return renderYamlText(input, step, {
      tags: TAGS,
      merge: (before, value, keyTag) => (keyTag === '!reset' ? value : aggregate(before, value)),
    });
  },
};
