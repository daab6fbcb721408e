/**
 * Salt's `cmd.exec_code_all`: the code written to a temp file (mode 0600, the `runas` user's
 * when given) and run as `<lang> <file> [args...]` through `cmd.run_all`, the file removed
 * after. Loaded by `cmd.exec_code`/`exec_code_all` when called, off the first job's path.
 */
import { randomBytes } from 'node:crypto';
import { chown, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ExecContext } from '../kernel/index.js';
import { pyStr } from '../kernel/util.js';
import { passwdByName } from './_passwd-db.js';

export async function execCodeAll(
  ctx: ExecContext,
  lang: string,
  code: unknown,
  cwd: unknown,
  args: unknown,
  kwargs: Readonly<Record<string, unknown>>,
): Promise<unknown> {
  // Salt's mkstemp: /tmp/tmp<random>
  const file = path.join(os.tmpdir(), `tmp${randomBytes(6).toString('base64url').replace(/[-_]/g, 'x')}`);
  await writeFile(file, pyStr(code), { mode: 0o600, flag: 'wx' });
  try {
    const runas = kwargs.runas;
    if (runas !== undefined && runas !== null) {
      const user = await passwdByName(String(runas));
      if (user) await chown(file, user.uid, -1);
    }
    const cmd = [lang, file];
    if (typeof args === 'string') cmd.push(args);
    else if (Array.isArray(args)) cmd.push(...args.map(pyStr));
    return await ctx.call('cmd.run_all', [cmd], { ...kwargs, cwd: cwd ?? null, python_shell: false });
  } finally {
    await rm(file, { force: true });
  }
}
