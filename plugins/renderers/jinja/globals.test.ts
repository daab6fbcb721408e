// Salt's `ifelse` template global is the minion's match.ifelse: the template passes its pairs
// and keywords through, and a minion without that function gets a clear error.
import { describe, expect, it } from 'vitest';
import { saltFunctionsFrom } from '../salt-functions.js';
import type { RenderContext } from '../types.js';
import { renderJinja } from './renderer.js';

function contextWith(fns: Parameters<typeof saltFunctionsFrom>[0]): RenderContext {
  return { grains: {}, pillar: {}, opts: {}, saltenv: 'base', salt: saltFunctionsFrom(fns) };
}

describe('ifelse', () => {
  it("calls salt['match.ifelse'] with the template's arguments", async () => {
    const seen: unknown[] = [];
    const ctx = contextWith({
      'match.ifelse': (args, kw) => {
        seen.push(args, kw);
        return args[0] === 'web*' ? args[1] : args.at(-1);
      },
    });
    const out = await renderJinja("{{ ifelse('web*', 'W', 'D', tgt_type='glob') }}", ctx, { path: 'x.sls' });
    expect(out).toBe('W');
    expect(seen).toEqual([['web*', 'W', 'D'], { tgt_type: 'glob' }]);
  });

  it('without match.ifelse the render fails naming it', async () => {
    await expect(renderJinja("{{ ifelse('a') }}", contextWith({}), { path: 'x.sls' })).rejects.toThrow(
      /ifelse needs salt\['match\.ifelse'\]/,
    );
  });
});
