/**
 * The `revoke_auth` request command (Salt's `AESFuncs.revoke_auth` over
 * `masterapi.RemoteFuncs.revoke_auth`): a minion asks the master to delete its own key, which
 * `saltutil.revoke_auth` sends. With `allow_minion_key_revoke` (Salt's default True) the key is
 * deleted in whatever state it is in, with what `salt-key -d` does after it: the minion's
 * session key removed, its data cache (`minions/<id>`) too unless `preserve_minion_cache`, a
 * `salt/key` event, and the AES rotation drop file with `rotate_aes_key`. Without it the master
 * answers the load back, as Salt's does, and keeps the key.
 *
 * A minion revokes only itself: the request's signed-in id, not an id in the load, names the
 * key (Salt checks the load's `tok` against that id's key to the same end).
 */
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type CommandContext, defineCommand } from '../../kernel/index.js';
import { deleteKey, KEY_STATES, type KeyState } from '../../kernel/services.js';
import { pyTruthy } from '../../kernel/util.js';

async function revokeAuth(load: Record<string, unknown>, ctx: CommandContext): Promise<unknown> {
  const id = ctx.id;
  if (id === undefined || (load.id !== undefined && load.id !== id)) return false;
  if (ctx.config.allow_minion_key_revoke === false) {
    ctx.log.warn({ id }, 'minion requested key revoke, but allow_minion_key_revoke is False');
    return load;
  }
  const { pki_dir: pkiDir, cachedir } = ctx.config;
  for (const state of Object.keys(KEY_STATES) as KeyState[]) {
    if (!(await deleteKey(pkiDir, state, id))) continue;
    ctx.fire('salt/key', { result: true, act: 'delete', id });
  }
  await rm(join(cachedir, 'sessions', id), { force: true });
  if (!pyTruthy(load.preserve_minion_cache))
    await rm(join(cachedir, 'minions', id), { recursive: true, force: true });
  if (ctx.config.rotate_aes_key !== false)
    await writeFile(join(cachedir, '.dfn'), '', { mode: 0o400 }).catch(() => undefined);
  ctx.log.info({ id }, 'minion key revoked at its request');
  return true;
}

export const revokeAuthCommand = defineCommand({
  cmd: 'revoke_auth',
  enc: 'aes',
  lane: 'worker',
  handle: revokeAuth,
});
