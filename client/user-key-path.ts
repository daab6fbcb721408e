/**
 * Where the master keeps the local user key, `<cachedir>/.<user>_key`: the shared secret a
 * local CLI presents in `publish`. The master writes it (master/user-keys.ts); clients
 * only read it, and import this alone so a `salt` run loads no crypto code.
 */
import { join } from 'node:path';

/** `<cachedir>/.<user>_key`: the shared secret a local CLI presents in `publish`. */
export function userKeyPath(cachedir: string, user: string): string {
  return join(cachedir, `.${user}_key`);
}
