/**
 * The minion-key functions of Salt's `saltutil` module: `regen_keys` (empty the pki dir and make
 * a new minion key pair, as Salt's channel set-up does when `minion.pub` is gone) and
 * `revoke_auth` (ask each master to delete this minion's key; the master does so only with
 * `allow_minion_key_revoke`).
 */
import { readdir, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { defineFunction, type ExecContext, SALT_ERR_EXEC_SYNC } from '../kernel/index.js';
import { generateRsaKeyPairAsync } from '../kernel/services.js';

/** Salt's `regen_keys`: every file in `pki_dir` removed (what cannot be is left), then a new `minion.pem`/`minion.pub`. */
async function regenKeys(ctx: ExecContext): Promise<null> {
  const pkiDir = String(ctx.opts.pki_dir ?? '');
  const names = await readdir(pkiDir).catch(() => {
    throw new SALT_ERR_EXEC_SYNC(`[Errno 2] No such file or directory: '${pkiDir}'`);
  });
  for (const name of names) {
    await unlink(join(pkiDir, name)).catch(() => undefined);
  }
  const bits = typeof ctx.opts.keysize === 'number' ? ctx.opts.keysize : 2048;
  const pair = await generateRsaKeyPairAsync(bits);
  // the private key first, as Salt's gen_keys writes it, owner-read-only
  await writeFile(join(pkiDir, 'minion.pem'), pair.privatePem, { mode: 0o400, flag: 'wx' });
  await writeFile(join(pkiDir, 'minion.pub'), pair.publicPem, { mode: 0o644, flag: 'wx' });
  ctx.log.info({ pki_dir: pkiDir }, 'minion keys regenerated: the master must accept the new key');
  return null;
}

/** Salt's `revoke_auth`: True once each master got the request, False when one did not answer (or there is none). */
async function revokeAuth(ctx: ExecContext, preserveMinionCache: unknown): Promise<boolean> {
  const link = ctx.master;
  if (!link) return false;
  try {
    await link.request({ cmd: 'revoke_auth', id: ctx.id, preserve_minion_cache: preserveMinionCache });
    return true;
  } catch (err) {
    ctx.log.warn({ err: (err as Error).message }, 'revoke_auth: the master did not answer');
    return false;
  }
}

export const keyFunctions = {
  regen_keys: defineFunction({
    doc: "Remove the minion's keys (every file in pki_dir, the master's cached public key included) and generate a new key pair. The running minion keeps its session; at its next authentication the master sees the new key, which it must accept (see saltutil.revoke_auth).\n\nCLI Example: salt '*' saltutil.regen_keys",
    run: (ctx) => regenKeys(ctx),
  }),
  revoke_auth: defineFunction({
    args: (zod) => zod.object({ preserve_minion_cache: zod.unknown().default(false) }),
    doc: "Ask the master to revoke this minion's key (the master does so when allow_minion_key_revoke is True; preserve_minion_cache keeps its cached data). Returns True once the master answered, False when it did not.\n\nCLI Example: salt '*' saltutil.revoke_auth",
    run: (ctx, a) => revokeAuth(ctx, a.preserve_minion_cache),
  }),
};
