import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensurePkiDirs, writeKey } from '../../../kernel/auth/pki.js';
import { generateRsaKeyPair } from '../../../kernel/crypt/rsa.js';
import { silentLogger } from '../../../kernel/log.js';
import type { WheelContext } from '../../../kernel/runners/define.js';
import key from './key.js';

async function setup(): Promise<{ ctx: WheelContext; events: string[] }> {
  const root = mkdtempSync(join(tmpdir(), 'tsalt-wheel-key-'));
  const pki = join(root, 'pki');
  await ensurePkiDirs(pki);
  const pair = generateRsaKeyPair(1024);
  writeFileSync(join(pki, 'master.pem'), pair.privatePem);
  writeFileSync(join(pki, 'master.pub'), pair.publicPem);
  await writeKey(pki, 'pending', 'web1', pair.publicPem);
  await writeKey(pki, 'pending', 'web2', pair.publicPem);
  await writeKey(pki, 'accepted', 'db1', pair.publicPem);
  const events: string[] = [];
  const ctx: WheelContext = {
    opts: { pki_dir: pki, cachedir: join(root, 'cache'), rotate_aes_key: false, hash_type: 'sha256' },
    log: silentLogger(),
    jid: 'j',
    user: 'root',
    fireEvent: (tag, data) => events.push(`${tag} ${String(data.act)} ${String(data.id)}`),
  };
  return { ctx, events };
}

const call = (ctx: WheelContext, fn: keyof typeof key.functions, args: Record<string, unknown> = {}) =>
  key.functions[fn]!.run(ctx, args as never, { args: [], kwargs: {} });

describe('key wheel', () => {
  it('list_all and list', async () => {
    const { ctx } = await setup();
    expect(await call(ctx, 'list_all')).toEqual({
      minions: ['db1'],
      minions_pre: ['web1', 'web2'],
      minions_rejected: [],
      minions_denied: [],
      local: ['master.pem', 'master.pub'],
    });
    expect(await call(ctx, 'list', { match: 'pre' })).toEqual({ minions_pre: ['web1', 'web2'] });
    await expect(call(ctx, 'list', { match: 'bogus' })).rejects.toThrow('unknown key status');
  });

  it('accept, reject, delete by glob and comma list, with salt/key events', async () => {
    const { ctx, events } = await setup();
    expect(await call(ctx, 'accept', { match: 'web1' })).toEqual({ minions: ['web1'] });
    expect(await call(ctx, 'reject', { match: 'web2,nope' })).toEqual({ minions_rejected: ['web2'] });
    expect(await call(ctx, 'delete', { match: 'web*' })).toEqual({});
    expect(events).toEqual([
      'salt/key accept web1',
      'salt/key reject web2',
      'salt/key delete web1',
      'salt/key delete web2',
    ]);
  });

  it('finger, gen and gen_accept', async () => {
    const { ctx } = await setup();
    const f = (await call(ctx, 'finger', { match: '*' })) as Record<string, Record<string, string>>;
    expect(Object.keys(f).sort()).toEqual(['local', 'minions', 'minions_pre']);
    const gen = (await call(ctx, 'gen', { keysize: 1024 })) as { pub: string };
    expect(gen.pub).toContain('BEGIN PUBLIC KEY');
    expect(await call(ctx, 'gen_accept', { id_: 'db1', keysize: 1024, force: false })).toEqual({});
    const made = (await call(ctx, 'gen_accept', { id_: 'new1', keysize: 1024, force: false })) as {
      pub: string;
    };
    expect(made.pub).toContain('BEGIN PUBLIC KEY');
    expect(((await call(ctx, 'list_all')) as { minions: string[] }).minions).toEqual(['db1', 'new1']);
  });
});
