/**
 * Salt's `temp` execution module (salt/modules/temp.py): make a temporary file or directory
 * the way Python's `tempfile` does (`<prefix><8 random characters><suffix>`, mode 0600/0700)
 * and return its path. The caller removes it.
 */
import { mkdir, open } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { defineFunction, defineModule, SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import { pyStr } from '../kernel/util.js';
import { pyOsError } from './_py-oserror.js';
import { randomName } from './_temp-name.js';

/** Tries fresh names until one is free (Python gives up after TMP_MAX tries as well). */
async function makeTemp(
  a: { suffix: string; prefix: string; parent?: string | null | undefined },
  create: (p: string) => Promise<void>,
): Promise<string> {
  const parent = a.parent || os.tmpdir();
  for (let i = 0; i < 10000; i++) {
    const p = path.join(parent, `${a.prefix}${randomName()}${a.suffix}`);
    try {
      await create(p);
      return p;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw new SALT_ERR_EXEC_COMMAND(pyOsError(err, p));
    }
  }
  throw new SALT_ERR_EXEC_COMMAND('[Errno 17] No usable temporary file name found');
}

const args = (z: typeof import('zod').z) =>
  z.object({
    suffix: z
      .unknown()
      .default('')
      .transform((v) => pyStr(v)),
    prefix: z
      .unknown()
      .default('tmp')
      .transform((v) => pyStr(v)),
    parent: z.string().nullish(),
  });

export default defineModule({
  name: 'temp',
  doc: 'Make temporary files and directories (Python tempfile names: prefix, 8 random characters, suffix).',
  functions: {
    dir: defineFunction({
      args,
      doc: `Make a temporary directory (mode 0700) and return its path; remove it when done.

suffix: the name's end (default none). prefix: the name's start (default "tmp").
parent: the directory to make it in (default the system's temporary directory).

CLI Example:

    salt '*' temp.dir
    salt '*' temp.dir prefix='mytemp-' parent='/var/run/'`,
      run: (_ctx, a) => makeTemp(a, (p) => mkdir(p, { mode: 0o700 }).then(() => undefined)),
    }),
    file: defineFunction({
      args,
      doc: `Make an empty temporary file (mode 0600) and return its path; remove it when done.

suffix: the name's end (default none). prefix: the name's start (default "tmp").
parent: the directory to make it in (default the system's temporary directory).

CLI Example:

    salt '*' temp.file
    salt '*' temp.file prefix='mytemp-' parent='/var/run/'`,
      run: (_ctx, a) => makeTemp(a, async (p) => (await open(p, 'wx', 0o600)).close()),
    }),
  },
});
