/** The local user key file `cachedir/.<user>_key` that CLI clients present to publish. */
import { userKeyPath } from '../client/user-key-path.js';
import { Crypticle } from '../kernel/crypt/crypticle.js';
import { writeSecret } from './secret-file.js';

/** Writes a fresh user key (Salt rewrites it at every master start). */
export async function writeUserKey(cachedir: string, user: string): Promise<string> {
  const key = Crypticle.generateKeyString();
  await writeSecret(userKeyPath(cachedir, user), key);
  return key;
}
