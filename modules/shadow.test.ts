import { describe, expect, it } from 'vitest';
import { moduleCtx } from '../states/_test-ctx.js';
import cmdMod from './cmd.js';
import shadow from './shadow.js';

// The hash Python's crypt.crypt('pw', '$6$abc') gives (Salt's shadow.gen_password).
describe('shadow.gen_password / info', () => {
  const ctx = moduleCtx([cmdMod, shadow]);
  it('makes the same sha512-crypt hash as Salt', async () => {
    expect(await ctx.call('shadow.gen_password', ['pw'], { crypt_salt: 'abc' })).toBe(
      '$6$abc$MtSdWSZbhct2oe.SOqOUM2M/GA/uj5.vyVtJgRHgKi9uqXuWuJqOYE7H/YlsYGVg/YYzDV0xt3fEIwYt580.5.',
    );
    expect(String(await ctx.call('shadow.gen_password', ['pw'], { algorithm: 'md5' }))).toMatch(/^\$1\$/);
  });
  it('an unknown user has every field empty', async () => {
    expect(await ctx.call('shadow.info', ['tsalt-t-nobody'])).toEqual({
      name: '',
      passwd: '',
      lstchg: '',
      min: '',
      max: '',
      warn: '',
      inact: '',
      expire: '',
    });
  });
});
