/**
 * `runas` and `group` for `cmd` (Salt's `_run` with `runas`/`group` on POSIX): the command runs
 * under `setpriv` with the user's uid, its primary group (or `group`) and its supplementary
 * groups, and with HOME, USER, LOGNAME and SHELL of that user.
 *
 * Deliberate differences: Salt reads the user's whole login environment through `su - user`
 * and needs `sudo` for `group`; here the minion's environment is kept (as with `clean_env`
 * off) with the user's identity variables set, and `setpriv` (util-linux) does both.
 */
import os from 'node:os';
import { SALT_ERR_EXEC_COMMAND } from '../kernel/errors.js';
import { pyStr } from '../kernel/python/index.js';
import { groupByName, passwdByName } from './_passwd-db.js';
import { which } from './_which.js';

export interface RunasSetup {
  /** Put in front of the argv. */
  prefix: string[];
  /** Set in the command's environment (the caller's `env` still wins). */
  env: Record<string, string>;
  /** The user's home: the default working directory. */
  home: string | null;
}

/** Null when the command runs as the minion's own user and group. */
export async function runasSetup(
  runas: string | null | undefined,
  group: string | null | undefined,
): Promise<RunasSetup | null> {
  const me = os.userInfo().username;
  const asOther = Boolean(runas) && runas !== me;
  if (!asOther && !group) return null;
  const user = asOther ? await passwdByName(String(runas)) : undefined;
  if (asOther && !user) throw new SALT_ERR_EXEC_COMMAND(`User '${runas}' is not available`);
  let gid: number | undefined;
  if (group) {
    const g = await groupByName(group);
    // Salt names the runas user in this message, not the group
    if (!g) throw new SALT_ERR_EXEC_COMMAND(`Group '${runas ? runas : pyStr(null)}' is not available`);
    gid = g.gid;
  }
  const setpriv = which('setpriv');
  if (setpriv === null)
    throw new SALT_ERR_EXEC_COMMAND('runas and group need the setpriv program (util-linux)');
  const prefix = [setpriv];
  const env: Record<string, string> = {};
  if (user) {
    prefix.push(`--reuid=${user.uid}`, `--regid=${gid ?? user.gid}`, '--init-groups');
    Object.assign(env, { HOME: user.home, USER: user.name, LOGNAME: user.name, SHELL: user.shell });
  } else prefix.push(`--regid=${gid}`, '--keep-groups');
  prefix.push('--');
  return { prefix, env, home: user ? user.home : null };
}
