// The `salt` template global: `salt.mod.fn(...)` reaches `mod.fn` even when the context's `has`
// cannot tell names apart (a minion's lazy loader answers true for any name), as users-formula's
// `salt.user.info(name)` needs.
import { describe, expect, it } from 'vitest';
import type { RenderContext } from '../types.js';
import { renderJinja } from './renderer.js';

function context(calls: string[]): RenderContext {
  return {
    grains: {},
    pillar: {},
    opts: {},
    saltenv: 'base',
    salt: {
      has: () => true,
      call: (fun, args) => {
        calls.push(fun);
        return fun === 'user.info' ? { home: `/home/${String(args[0])}` } : `${fun}()`;
      },
    },
  };
}

describe('the salt proxy', () => {
  it('reads salt.user.info as the function user.info, not a function named user', async () => {
    const calls: string[] = [];
    const out = await renderJinja(
      "{{ salt.user.info('ann').home }} {{ salt['user.info']('bo').home }} {{ salt.file.dirname('/a/b') }}",
      context(calls),
      { path: 'x.sls' },
    );
    expect(out).toBe('/home/ann /home/bo file.dirname()');
    expect(calls).toEqual(['user.info', 'user.info', 'file.dirname']);
  });
});
