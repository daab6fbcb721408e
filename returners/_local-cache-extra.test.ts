import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../kernel/log.js';
import localCache from './local-cache.js';

// expected values are what Salt 3006.18's local_cache returned for the same calls (/tmp/local21/lc.py)
describe("local_cache's end times, newest jobs and register", () => {
  const root = mkdtempSync(join(tmpdir(), 'tsalt-lcx-'));
  const ctx = { opts: { cachedir: root, hash_type: 'sha256' }, log: silentLogger(), options: {} };
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const jid = '20261129101500123456';

  it('stores and reads a job end time as text; false before; a number empties it and is refused', async () => {
    expect(await localCache.getEndtime(jid, ctx)).toBe(false);
    await localCache.updateEndtime(jid, '2026, Nov 29 10:15:02.000000', ctx);
    expect(await localCache.getEndtime(jid, ctx)).toBe('2026, Nov 29 10:15:02.000000');
    await expect(localCache.updateEndtime(jid, 12345, ctx)).rejects.toThrow(
      "expected str, bytes, or bytearray not <class 'int'>",
    );
    expect(await localCache.getEndtime(jid, ctx)).toBe('');
  });

  it('lists the count newest jobs, oldest first, without find_job unless asked', async () => {
    const funs = ['test.ping', 'saltutil.find_job', 'cmd.run', 'test.arg'];
    for (const [i, fun] of funs.entries()) {
      const j = `2026112910160${i}000000`;
      const kwargs = i === 3 ? { metadata: { k: 3 } } : {};
      await localCache.saveLoad!(
        j,
        { jid: j, fun, arg: ['a'], tgt: 'x', tgt_type: 'glob', user: 'u', kwargs } as never,
        [],
        ctx,
      );
    }
    const two = await localCache.getJidsFilter(2, true, ctx);
    expect(two.map((j) => j.Function)).toEqual(['cmd.run', 'test.arg']);
    expect(two[1]).toEqual({
      Function: 'test.arg',
      Arguments: ['a'],
      Target: 'x',
      'Target-type': 'glob',
      User: 'u',
      Metadata: { k: 3 },
      JID: '20261129101603000000',
      StartTime: '2026, Nov 29 10:16:03.000000',
    });
    expect((await localCache.getJidsFilter(10, false, ctx)).length).toBe(4);
    expect((await localCache.getJidsFilter(10, true, ctx)).length).toBe(3);
    expect(await localCache.getJidsFilter(0, true, ctx)).toEqual([]);
  });

  it("fails the register calls as Salt 3006's, leaving its empty register file", async () => {
    await expect(localCache.loadReg(ctx)).rejects.toThrow("'outdir'");
    await expect(localCache.saveReg({ a: 1 }, ctx)).rejects.toThrow("'outdir'");
    const reg = join(root, 'thorium', 'register');
    expect(existsSync(reg) && readFileSync(reg, 'utf8')).toBe('');
    const withOutdir = { ...ctx, opts: { ...ctx.opts, outdir: '/tmp' } };
    await expect(localCache.loadReg(withOutdir)).rejects.toThrow(
      "a bytes-like object is required, not 'str'",
    );
  });
});
