/**
 * Salt's `rsync` execution module (`salt/modules/rsync.py`): `rsync -avz` from a source (a
 * local path, or a `salt://` file or directory fetched first) to a destination, rsync's version,
 * and the daemon's config file. Unset arguments fall back to the `rsync.*` options (read with
 * `config.option`, so a grain or pillar of the same name serves too), as Salt's do.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  defineFunction,
  defineModule,
  type ExecContext,
  SALT_ERR_EXEC_COMMAND,
  SALT_ERR_INVOCATION,
} from '../kernel/index.js';
import { pyTruthy } from '../kernel/util.js';
import { which } from './_which.js';

/** What `rsync.rsync` takes besides `src` and `dst`. */
export interface RsyncFlags {
  delete: unknown;
  force: unknown;
  update: unknown;
  passwordfile: unknown;
  exclude: unknown;
  excludefrom: unknown;
  dryrun: unknown;
  rsh: unknown;
}

/** Salt's `_check`: the options for the flags given (`excludefrom` wins over `exclude`). */
export function rsyncOptions(f: RsyncFlags): string[] {
  const out = ['-avz'];
  if (pyTruthy(f.delete)) out.push('--delete');
  if (pyTruthy(f.force)) out.push('--force');
  if (pyTruthy(f.update)) out.push('--update');
  if (pyTruthy(f.rsh)) out.push(`--rsh=${String(f.rsh)}`);
  if (pyTruthy(f.passwordfile)) out.push('--password-file', String(f.passwordfile));
  if (pyTruthy(f.excludefrom)) out.push('--exclude-from', String(f.excludefrom));
  else if (pyTruthy(f.exclude))
    for (const ex of Array.isArray(f.exclude) ? f.exclude : [f.exclude]) out.push('--exclude', String(ex));
  if (pyTruthy(f.dryrun)) out.push('--dry-run');
  return out;
}

const OPTION_KEYS = [
  'delete',
  'force',
  'update',
  'passwordfile',
  'exclude',
  'excludefrom',
  'dryrun',
  'rsh',
] as const;

async function option(ctx: ExecContext, given: unknown, key: string): Promise<unknown> {
  return pyTruthy(given) ? given : ctx.call('config.option', [`rsync.${key}`]);
}

/**
 * A `salt://` source fetched into a temporary place: a directory (Salt's `cp.get_dir`, which
 * puts it under the folder by its own name) or a file. Returns the local source and what to
 * remove afterwards.
 */
async function fetchSource(
  ctx: ExecContext,
  src: string,
  saltenv: unknown,
): Promise<{ src: string; tmp: string }> {
  const rel = src.replace(/salt:\/\//g, '');
  const dirs = (await ctx.call('cp.list_master_dirs', [], { saltenv })) as string[];
  if (dirs.includes(rel)) {
    const tmp = await mkdtemp(path.join(os.tmpdir(), 'tmp'));
    const got = await ctx.call('cp.get_dir', [src, tmp, saltenv]);
    if (!pyTruthy(got)) throw new SALT_ERR_EXEC_COMMAND(`${src} does not exist`);
    return { src: `${tmp}/`, tmp };
  }
  // Salt fetches a file to a `mkstemp` name, which rsync then copies under that name.
  const tmp = path.join(os.tmpdir(), `__salt.tmp.${tempSuffix()}`);
  const got = await ctx.call('cp.get_file', [src, tmp, saltenv]);
  if (!pyTruthy(got)) throw new SALT_ERR_EXEC_COMMAND(`${src} does not exist`);
  return { src: tmp, tmp };
}

/** Eight characters as Python's `tempfile` draws them. */
function tempSuffix(): string {
  const chars = 'abcdefghijklmnopqrstuvwxyz0123456789_';
  return Array.from(randomBytes(8), (b) => chars[b % chars.length]).join('');
}

/** Salt's words for an unreadable config file. */
function configError(err: NodeJS.ErrnoException, file: string): string {
  if (err.code === 'ENOENT') return `${file} does not exist`;
  if (err.code === 'EACCES') return `Unable to read ${file}, access denied`;
  if (err.code === 'EISDIR') return `Unable to read ${file}, path is a directory`;
  const num = os.constants.errno[err.code as keyof typeof os.constants.errno];
  return `Error ${num ?? err.code}: ${err.message}`;
}

const cli = (example: string) => `\n\nCLI Example:\n\n    ${example}`;

export default defineModule({
  name: 'rsync',
  doc: 'Wrapper for rsync: copy files and directories with `rsync -avz`, its version and the daemon config.',
  virtual: () =>
    which('rsync')
      ? true
      : {
          ok: false,
          reason: 'The rsync execution module cannot be loaded: the rsync binary is not in the path.',
        },
  functions: {
    rsync: defineFunction({
      args: (z) =>
        z.object({
          src: z.string().nullable(),
          dst: z.string().nullable(),
          delete: z.unknown().default(false),
          force: z.unknown().default(false),
          update: z.unknown().default(false),
          passwordfile: z.unknown().default(null),
          exclude: z.unknown().default(null),
          excludefrom: z.unknown().default(null),
          dryrun: z.unknown().default(false),
          rsh: z.unknown().default(null),
          additional_opts: z.unknown().default(null),
          saltenv: z.string().default('base'),
        }),
      doc: `Rsync files from src to dst with \`rsync -avz\` (delete, force, update, dryrun: rsync's --delete, --force, --update, --dry-run; passwordfile, exclude (one pattern or a list), excludefrom, rsh; additional_opts: a list of further options). A salt:// src is fetched from saltenv first. Returns cmd.run_all's result.${cli(
        "salt '*' rsync.rsync /path/to/src /path/to/dest delete=True update=True exclude='[exclude1/dir,exclude2/dir]'",
      )}`,
      run: async (ctx, a) => {
        const src = pyTruthy(a.src) ? a.src : await ctx.call('config.option', ['rsync.src']);
        const dst = pyTruthy(a.dst) ? a.dst : await ctx.call('config.option', ['rsync.dst']);
        const flags = {} as Record<(typeof OPTION_KEYS)[number], unknown>;
        for (const key of OPTION_KEYS) flags[key] = await option(ctx, a[key], key);
        if (!pyTruthy(src) || !pyTruthy(dst)) throw new SALT_ERR_INVOCATION('src and dst cannot be empty');
        let from = String(src);
        let tmp: string | undefined;
        try {
          if (from.startsWith('salt://')) ({ src: from, tmp } = await fetchSource(ctx, from, a.saltenv));
          const opts = rsyncOptions(flags);
          const extra = Array.isArray(a.additional_opts) && a.additional_opts.length ? a.additional_opts : [];
          return await ctx.call(
            'cmd.run_all',
            [['rsync', ...opts, ...extra.map(String), from, String(dst)]],
            {
              python_shell: false,
            },
          );
        } finally {
          if (tmp) await ctx.call('file.remove', [tmp]);
        }
      },
    }),
    version: defineFunction({
      doc: `Return rsync's version number.${cli("salt '*' rsync.version")}`,
      run: async (ctx) => {
        const out = String(
          await ctx.call('cmd.run_stdout', [['rsync', '--version']], { python_shell: false }),
        );
        const word = (out.split('\n')[0] ?? '').trim().split(/\s+/)[2];
        if (word === undefined) throw new SALT_ERR_EXEC_COMMAND('Unable to determine rsync version');
        return word;
      },
    }),
    config: defineFunction({
      args: (z) => z.object({ conf_path: z.string().default('/etc/rsyncd.conf') }),
      doc: `Return the contents of the rsync daemon's config file.${cli("salt '*' rsync.config")}`,
      run: async (_ctx, a) => {
        try {
          return await readFile(a.conf_path, 'utf8');
        } catch (err) {
          throw new SALT_ERR_EXEC_COMMAND(configError(err as NodeJS.ErrnoException, a.conf_path));
        }
      },
    }),
  },
});
