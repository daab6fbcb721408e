import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

// use_usermod=False (Salt's default) writes the hash into the shadow file under `root`; a
// throwaway root dir holds passwd/shadow files, so no real account is touched.
describe('shadow.set_password', () => {
  const ctx = moduleCtx([cmdMod, shadow]);
  it('edits the shadow file in place, completing a short entry, as Salt does', async () => {
    const root = mkdtempSync(join(tmpdir(), 'tsalt-shadow-'));
    mkdirSync(join(root, 'etc'));
    writeFileSync(
      join(root, 'etc/passwd'),
      'root:x:0:0::/root:/bin/sh\ntsalt-t1:x:4242:4242::/tmp:/bin/sh\n',
    );
    writeFileSync(join(root, 'etc/shadow'), 'root:*:19000:0:99999:7:::\ntsalt-t1:!:19000\n');
    const hash = '$6$abc$MtSdWSZbhct2oe';
    const day = () => String(Math.floor(Date.now() / 86_400_000));
    const before = day();
    expect(await ctx.call('shadow.set_password', ['tsalt-t1', hash, false, root])).toBe(true);
    const days = [before, day()]; // the call may straddle midnight
    const lines = readFileSync(join(root, 'etc/shadow'), 'utf8').split('\n');
    expect(lines[0]).toBe('root:*:19000:0:99999:7:::');
    const [user, pw, lstchg, ...rest] = (lines[1] ?? '').split(':');
    expect([user, pw, rest.join(':')]).toEqual(['tsalt-t1', hash, ':::::']);
    expect(days).toContain(lstchg);
    expect(await ctx.call('shadow.set_password', ['tsalt-t-nobody', hash, false, root])).toBe(false);
    rmSync(root, { recursive: true, force: true });
  });
});
