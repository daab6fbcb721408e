/**
 * `mod_aggregate` for a state module (Salt's `<module>.mod_aggregate(low, chunks, running)`):
 * the state system calls it under `state_aggregate` (runtime/module-hooks.ts) with the chunk
 * about to run, the run's chunks and the returns so far; it returns the chunk to run. `chunks`
 * are the run's own chunks, not copies: one a module absorbs is marked `__agg__` there.
 */
import { defineState, type StateFunctionSpec, type StateReturn } from './define.js';

export type Chunk = Record<string, unknown>;

export function defineAggregate(
  doc: string,
  aggregate: (low: Chunk, chunks: Chunk[], running: Readonly<Record<string, unknown>>) => Chunk,
): StateFunctionSpec {
  return defineState({
    args: (z) =>
      z.object({
        low: z.record(z.string(), z.unknown()),
        chunks: z.array(z.unknown()),
        running: z.unknown(),
      }),
    doc,
    run: (_ctx, a) =>
      aggregate(
        a.low,
        a.chunks as Chunk[],
        (a.running ?? {}) as Record<string, unknown>,
      ) as unknown as StateReturn,
  });
}
