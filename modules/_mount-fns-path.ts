/**
 * Salt's `mount.get_mount_from_path`, `mount.get_device_from_path` and `mount.is_fuse_exec`,
 * merged into `modules/mount.ts`: the mount point above a path (Python's `os.path.ismount`
 * walking up), its device in `mount.active`, and whether a program links libfuse (`ldd`).
 */
import { lstatSync, realpathSync } from 'node:fs';
import { dirname, resolve, sep } from 'node:path';
import { defineFunction, SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import { which } from './_which.js';

/** Python's `os.path.ismount`: not a link, and on another device than its parent or the same inode. */
export function isMount(path: string): boolean {
  try {
    const st = lstatSync(path);
    if (st.isSymbolicLink()) return false;
    const parent = lstatSync(resolve(path, '..'));
    return st.dev !== parent.dev || st.ino === parent.ino;
  } catch {
    return false;
  }
}

/** Python's `os.path.realpath` (non-strict): the existing part resolved, the rest kept. */
function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    const parent = dirname(path);
    if (parent === path) return path;
    return resolve(realPath(parent), path.slice(parent.length + (parent.endsWith(sep) ? 0 : 1)));
  }
}

export function mountFromPath(path: string): string {
  let p = realPath(resolve(path));
  while (p !== sep) {
    if (isMount(p)) return p;
    p = resolve(p, '..');
  }
  return p;
}

const str = (z: typeof import('zod').z) => z.union([z.string(), z.number()]).transform(String);

export const pathMountFunctions = {
  get_mount_from_path: defineFunction({
    args: (z) => z.object({ path: str(z) }),
    doc: `Return the mount providing a specified path.

CLI Example:

    salt '*' mount.get_mount_from_path /opt/some/nested/path`,
    run: (_ctx, a) => mountFromPath(a.path),
  }),
  get_device_from_path: defineFunction({
    args: (z) => z.object({ path: str(z) }),
    doc: `Return the underlying device for a specified path.

CLI Example:

    salt '*' mount.get_device_from_path /`,
    run: async (ctx, a) => {
      const mounts = (await ctx.call('mount.active')) as Record<string, { device?: string }>;
      return mounts[mountFromPath(a.path)]?.device ?? null;
    },
  }),
  is_fuse_exec: defineFunction({
    args: (z) => z.object({ cmd: str(z) }),
    doc: `Returns true if the command passed is a fuse mountable application.

CLI Example:

    salt '*' mount.is_fuse_exec sshfs`,
    run: async (ctx, a) => {
      const path = which(a.cmd);
      if (!path) return false;
      if (!which('ldd')) throw new SALT_ERR_EXEC_COMMAND('ldd');
      return String(await ctx.call('cmd.run', [['ldd', path]], { python_shell: false })).includes('libfuse');
    },
  }),
};
