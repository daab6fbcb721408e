/**
 * One user's GSettings key, read and written as Salt's `gnome` module does (its `_GSettings`
 * class): the `gsettings` program in a throwaway session bus (`dbus-run-session`, else
 * `dbus-launch`), run as the user with `XDG_RUNTIME_DIR` pointing at their runtime directory.
 */
import { type ExecContext, SALT_ERR_INVOCATION } from '../kernel/index.js';
import { pyStr } from '../kernel/util.js';
import { passwdByName } from './_passwd-db.js';
import { pyValueClass } from './_py-exception.js';
import { which } from './_which.js';

/** What `cmd.run_all` answers (Salt adds `pid` when the command ran). */
export interface GsettingsRun {
  pid?: number;
  retcode: number;
  stdout: string;
  stderr?: string;
}

/** The argv prefix Salt runs gsettings with: in a private session bus. */
function gsettingsCommand(): string[] {
  return which('dbus-run-session')
    ? ['dbus-run-session', '--', 'gsettings']
    : ['dbus-launch', '--exit-with-session', 'gsettings'];
}

/**
 * The user's uid, or undefined when there is no such user. A user that is not a string is
 * Salt's `pwd.getpwnam` TypeError, which Salt reports as invalid arguments.
 */
async function uidOf(user: unknown): Promise<number | undefined> {
  if (typeof user !== 'string')
    // CPython names None itself, other values by their class
    throw new SALT_ERR_INVOCATION(
      `getpwnam() argument must be str, not ${user === null || user === undefined ? 'None' : pyValueClass(user)}`,
    );
  return (await passwdByName(user))?.uid;
}

async function runAs(ctx: ExecContext, user: string, uid: number, argv: string[]): Promise<GsettingsRun> {
  return (await ctx.call('cmd.run_all', [argv], {
    runas: user,
    env: { XDG_RUNTIME_DIR: `/run/user/${uid}` },
    python_shell: false,
  })) as GsettingsRun;
}

/** `gsettings get`: its output with `uint32 ` taken out, or false when the user does not exist. */
export async function gsettingsGet(
  ctx: ExecContext,
  user: unknown,
  schema: unknown,
  key: unknown,
): Promise<string | false> {
  const uid = await uidOf(user);
  if (uid === undefined) {
    ctx.log.info('User does not exist');
    return false;
  }
  const r = await runAs(ctx, String(user), uid, [...gsettingsCommand(), 'get', pyStr(schema), pyStr(key)]);
  return r.stdout.replaceAll('uint32 ', '');
}

/** `gsettings set`: `cmd.run_all`'s answer, or Salt's own when the user does not exist. */
export async function gsettingsSet(
  ctx: ExecContext,
  user: unknown,
  schema: unknown,
  key: unknown,
  value: unknown,
): Promise<GsettingsRun> {
  const uid = await uidOf(user);
  if (uid === undefined) {
    ctx.log.info('User does not exist');
    return { retcode: 1, stdout: `User ${pyStr(user)} does not exist` };
  }
  const argv = [...gsettingsCommand(), 'set', pyStr(schema), pyStr(key), pyStr(value)];
  return runAs(ctx, String(user), uid, argv);
}
