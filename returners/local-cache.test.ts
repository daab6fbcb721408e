import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../kernel/log.js';
import localCache from './local-cache.js';

describe('local_cache', () => {
  const root = mkdtempSync(join(tmpdir(), 'tsalt-lc-'));
  const ctx = { opts: { cachedir: root, hash_type: 'sha256' }, log: silentLogger(), options: {} };
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const ret = (id: string, jid: string) => ({
    id,
    jid,
    fun: 'test.ping',
    fun_args: [],
    return: true,
    retcode: 0,
    success: true,
  });

  it("stores loads and returns in Salt's layout and refuses a second return", async () => {
    const jid = await localCache.prepJid!(ctx, {});
    await localCache.saveLoad!(
      jid,
      { cmd: 'publish', tgt: '*', fun: 'test.ping', arg: [], tgt_type: 'glob', ret: '', jid },
      ['m1'],
      ctx,
    );
    await localCache.returner(ret('m1', jid), ctx);
    await expect(localCache.returner(ret('m1', jid), ctx)).rejects.toMatchObject({
      code: 'SALT_ERR_JOB_DUPLICATE_RETURN',
    });
    expect(await localCache.getJid!(jid, ctx)).toEqual({ m1: { return: true, retcode: 0, success: true } });
    expect((await localCache.getLoad!(jid, ctx))?.Minions).toEqual(['m1']);
  });

  it('an end state never hides a real return, and a late return replaces it', async () => {
    const jid = await localCache.prepJid!(ctx, {});
    await localCache.saveEndState!(jid, 'm2', 'no_response', ctx);
    expect(await localCache.getJid!(jid, ctx)).toEqual({
      m2: { return: 'Minion did not return. [No response]', state: 'no_response' },
    });
    await localCache.returner(ret('m2', jid), ctx);
    await localCache.saveEndState!(jid, 'm2', 'not_connected', ctx);
    expect(await localCache.getJid!(jid, ctx)).toEqual({ m2: { return: true, retcode: 0, success: true } });
  });
});
