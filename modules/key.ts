/**
 * Salt's `key` execution module (salt/modules/key.py): the fingerprints of the minion's own
 * public key and of the master's key it has cached, as `salt-key -F` shows them.
 */
import path from 'node:path';
import { defineFunction, defineModule, type ExecContext, SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import { pemFingerOfFile } from '../kernel/services.js';

async function fingerOf(
  ctx: ExecContext,
  file: string,
  hashType: string | null | undefined,
): Promise<string> {
  const type = hashType ?? (typeof ctx.opts.hash_type === 'string' ? ctx.opts.hash_type : 'sha256');
  const pki = typeof ctx.opts.pki_dir === 'string' ? ctx.opts.pki_dir : '/etc/salt/pki/minion';
  try {
    return await pemFingerOfFile(path.join(pki, file), type);
  } catch (err) {
    throw new SALT_ERR_EXEC_COMMAND(`module 'hashlib' has no attribute '${type}': ${(err as Error).message}`);
  }
}

const hashArg = (z: typeof import('zod').z) => z.object({ hash_type: z.string().nullish() });

export default defineModule({
  name: 'key',
  doc: "Fingerprints of the minion's public key and of its master's public key.",
  functions: {
    finger: defineFunction({
      args: hashArg,
      doc: `The fingerprint of this minion's public key (pki_dir/minion.pub); "" when there is none.

hash_type: the digest (default: the hash_type option, sha256).

CLI Example:

    salt '*' key.finger`,
      run: (ctx, a) => fingerOf(ctx, 'minion.pub', a.hash_type),
    }),
    finger_master: defineFunction({
      args: hashArg,
      doc: `The fingerprint of the master's public key as this minion cached it (pki_dir/minion_master.pub); "" when there is none.

hash_type: the digest (default: the hash_type option, sha256).

CLI Example:

    salt '*' key.finger_master`,
      run: (ctx, a) => fingerOf(ctx, 'minion_master.pub', a.hash_type),
    }),
  },
});
