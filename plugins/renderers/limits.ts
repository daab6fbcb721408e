/**
 * The default bounds of one render (documented in docs/renderers.md) and the deadline check
 * every long-running step calls.
 */
import { SALT_ERR_RENDER_LIMIT } from './errors.js';
import type { RenderLimits } from './types.js';
import { renderError } from './where.js';

export const DEFAULT_RENDER_LIMITS: RenderLimits = {
  timeoutMs: 30_000,
  maxDepth: 64,
  maxIterations: 10_000_000,
  maxOutput: 64 * 1024 * 1024,
  maxYamlNodes: 1_000_000,
};

/** A function that throws SALT_ERR_RENDER_LIMIT once `timeoutMs` has passed since now. */
export function deadline(path: string, timeoutMs: number): () => void {
  const until = Date.now() + timeoutMs;
  return () => {
    if (Date.now() > until)
      throw renderError(
        SALT_ERR_RENDER_LIMIT,
        { path, line: 0, column: 0 },
        `rendering took longer than ${timeoutMs} ms (a template that loops forever?): stopped`,
      );
  };
}
