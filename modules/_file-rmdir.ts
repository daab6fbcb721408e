/**
 * Salt's `file.rmdir` (`salt/modules/file.py`): removes an empty folder, with `recurse` the empty
 * folders under it first (deepest first), with `older_than` only those not modified for that
 * many days; `verbose` returns what was deleted and the errors as Python's `OSError` reads them.
 */
import { rmdir as rmdirFs, stat } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { defineFunction, SALT_ERR_INVOCATION } from '../kernel/index.js';
import { pyRepr } from '../kernel/util.js';
import { cli, expand, str } from './_file-args.js';
import { isDir } from './_file-stat.js';
import { walkUp } from './_file-walk.js';

/** C's strerror for the codes a rmdir meets, as Python's `str(OSError)` shows them. */
const STRERROR: Readonly<Record<string, [number, string]>> = {
  ENOTEMPTY: [39, 'Directory not empty'],
  EACCES: [13, 'Permission denied'],
  EPERM: [1, 'Operation not permitted'],
  EBUSY: [16, 'Device or resource busy'],
  ENOENT: [2, 'No such file or directory'],
  ENOTDIR: [20, 'Not a directory'],
  EROFS: [30, 'Read-only file system'],
};

function osError(err: unknown, path: string): string {
  const code = (err as NodeJS.ErrnoException).code ?? '';
  const [n, text] = STRERROR[code] ?? [
    (err as NodeJS.ErrnoException).errno ?? 0,
    String((err as Error).message),
  ];
  return `[Errno ${Math.abs(n)}] ${text}: ${pyRepr(path)}`;
}

const mtime = async (p: string): Promise<number> => (await stat(p)).mtimeMs / 1000;

export const rmdirFunctions = {
  rmdir: defineFunction({
    args: (z) =>
      z.object({
        path: str(z),
        recurse: z.boolean().default(false),
        verbose: z.boolean().default(false),
        older_than: z.unknown().optional(),
      }),
    doc: `Remove the specified directory. Fails if a directory is not empty.

recurse: when True, remove all empty directories under the path first.
verbose: return {deleted, errors, result} rather than a boolean.
older_than: only remove directories not modified for this many days.${cli("salt '*' file.rmdir /tmp/foo/")}`,
    async run(ctx, a) {
      const path = expand(a.path);
      if (!isAbsolute(path)) throw new SALT_ERR_INVOCATION('File path must be absolute.');
      if (!(await isDir(path))) throw new SALT_ERR_INVOCATION('A valid directory was not specified.');
      let olderThan = 0;
      if (
        a.older_than !== undefined &&
        a.older_than !== null &&
        a.older_than !== 0 &&
        a.older_than !== false
      ) {
        const days = Number.parseInt(String(a.older_than), 10);
        if (Number.isNaN(days)) ctx.log.error(`Unable to set 'older_than'. Defaulting to 0 days.`);
        else olderThan = Date.now() / 1000 - days * 86400;
      }
      const deleted: string[] = [];
      const errors: [string, string][] = [];
      const old = async (p: string) => !olderThan || (await mtime(p)) < olderThan;
      let ret = false;
      if (a.recurse) {
        const dirs = (await walkUp(path, false)).flatMap(([root, subdirs]) =>
          subdirs.map((d) => join(root, d)),
        );
        for (const d of dirs) {
          if (!(await old(d))) continue;
          try {
            await rmdirFs(d);
            deleted.push(d);
          } catch (err) {
            errors.push([d, osError(err, d)]);
          }
        }
        ret = errors.length === 0;
      }
      if (await old(path)) {
        try {
          await rmdirFs(path);
          deleted.push(path);
          ret = ret || !a.recurse;
        } catch (err) {
          ret = false;
          errors.push([path, osError(err, path)]);
        }
      }
      return a.verbose ? { deleted, errors, result: ret } : ret;
    },
  }),
};
