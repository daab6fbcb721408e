import { describe, expect, it } from 'vitest';
import { moduleCtx } from '../states/_test-ctx.js';
import restartcheckMod from './restartcheck.js';

describe('restartcheck.restartcheck', () => {
  it("answers Salt's refusal on a family it does not handle, before reading anything", async () => {
    const ctx = moduleCtx([restartcheckMod], { grains: { os_family: 'Arch', kernel: 'Linux' } });
    expect(await ctx.call('restartcheck.restartcheck')).toEqual({
      result: false,
      comment: 'Only available on Debian, Red Hat and NI Linux Real-Time based systems.',
    });
  });

  it('loads on Linux only', () => {
    const v = restartcheckMod.virtual;
    expect(typeof v === 'function' && v({ opts: {}, grains: { kernel: 'Linux' } })).toBe(true);
    expect(typeof v === 'function' && v({ opts: {}, grains: { kernel: 'Darwin' } })).toEqual({
      ok: false,
      reason: 'restartcheck reads /proc: Linux only',
    });
  });
});
