import { describe, expect, it } from 'vitest';
import { defineFunction, resolveFunctionArgs } from './define.js';

describe('resolveFunctionArgs', () => {
  it('builds an args builder once, even when several lookups race for it', async () => {
    let built = 0;
    const spec = defineFunction({
      doc: 'x',
      args: (z) => {
        built++;
        return z.object({ n: z.number() });
      },
      run: () => true,
    });
    const resolved = await Promise.all(Array.from({ length: 8 }, () => resolveFunctionArgs(spec)));
    expect(built).toBe(1);
    for (const r of resolved) expect(r.args?.parse({ n: 1 })).toEqual({ n: 1 });
  });
});
