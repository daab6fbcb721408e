/**
 * Salt-style coercion of raw option values before validation: each option's registered
 * `Coercion` (schema-common.ts), as Salt's config loader turns `"4506"` into 4506.
 */
import type { z } from 'zod';
import { optionMeta } from './schema-common.js';

const NUMERIC = /^\s*[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?\s*$/;

/** Applies each option's registered coercion (see `Coercion`) to a shallow copy of `raw`. */
export function coerceOptions(
  shape: Record<string, z.ZodType>,
  raw: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...raw };
  for (const [key, value] of Object.entries(raw)) {
    const schema = shape[key];
    const coerce = schema === undefined ? undefined : optionMeta.get(schema)?.coerce;
    if (coerce === 'number' && typeof value === 'string' && NUMERIC.test(value)) out[key] = Number(value);
    else if (coerce === 'string' && typeof value === 'number' && Number.isFinite(value))
      out[key] = String(value);
    else if (coerce === 'lowercase' && typeof value === 'string') out[key] = value.toLowerCase();
    else if (coerce === 'null-to-default' && value === null) delete out[key];
  }
  return out;
}
