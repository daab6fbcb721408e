/**
 * Which keyring Salt's `gpg` functions use and whose it is (`_get_user_info`,
 * `_get_user_gnupghome` and `_restore_ownership` in salt/modules/gpg.py): `gnupghome` when
 * given, else `<config_dir>/gpgkeys` for user `salt`, else `<home>/.gnupg` of `user` (default:
 * the minion's `user` option). A function that writes the keyring for another user than the
 * one running the minion hands the keyring to the running user first and back to `user` after.
 */
import { chown, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { type ExecContext, SALT_ERR_INVOCATION } from '../kernel/index.js';
import { groupAll, type PasswdEntry, passwdByName } from './_passwd-db.js';

/** Salt's `_get_user_info`: the passwd entry of `user` (default: the minion's `user`). */
export async function gpgUserInfo(ctx: ExecContext, user?: string | null): Promise<PasswdEntry> {
  const name = user || String(ctx.opts.user ?? 'root');
  const info = await passwdByName(name);
  if (info) return info;
  // Salt's special case: a missing `salt` user falls back to the user Salt runs as
  if (name === 'salt') return gpgUserInfo(ctx);
  throw new SALT_ERR_INVOCATION(`User ${name} does not exist`);
}

/** Salt's `_get_user_gnupghome`, or `gnupghome` when given. */
export async function gpgHome(
  ctx: ExecContext,
  user?: string | null,
  gnupghome?: string | null,
): Promise<string> {
  if (gnupghome) return gnupghome;
  if (user === 'salt') return path.join(String(ctx.opts.config_dir ?? '/etc/salt'), 'gpgkeys');
  return path.join((await gpgUserInfo(ctx, user)).home, '.gnupg');
}

/** Salt's `file.find(dir)` with no criteria: every path under `dir`. */
async function walk(dir: string): Promise<string[]> {
  const out: string[] = [];
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const e of entries) {
    const p = path.join(dir, e.name);
    out.push(p);
    if (e.isDirectory()) out.push(...(await walk(p)));
  }
  return out;
}

async function chownAll(home: string, uid: number, gid: number): Promise<void> {
  for (const p of [home, ...(await walk(home))]) await chown(p, uid, gid).catch(() => undefined);
}

/** The gid of the group `gid` names (Salt chowns by group name: `file.gid_to_group`). */
async function groupGid(gid: number): Promise<number> {
  return (await groupAll()).find((g) => g.gid === gid)?.gid ?? gid;
}

/** Salt's `_restore_ownership`: runs `fn` with the keyring owned by the running user, then gives it to `user`. */
export async function withOwnership<T>(
  ctx: ExecContext,
  user: string | null | undefined,
  gnupghome: string | null | undefined,
  fn: () => Promise<T>,
): Promise<T> {
  const home = await gpgHome(ctx, user, gnupghome);
  const owner = await gpgUserInfo(ctx, user);
  const runner = await gpgUserInfo(ctx);
  const exists = await stat(home).then(
    () => true,
    () => false,
  );
  if (owner.uid !== runner.uid && exists) await chownAll(home, runner.uid, await groupGid(runner.gid));
  const ret = await fn();
  if (owner.uid !== runner.uid) await chownAll(home, owner.uid, await groupGid(owner.gid));
  return ret;
}
