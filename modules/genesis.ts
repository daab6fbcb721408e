/**
 * Salt's `genesis` execution module (salt/modules/genesis.py): container and VM images. What
 * runs offline here is Salt's: which bootstrap tools are present, `ldd` dependency walks,
 * packing and unpacking a tree as a tarball (through `archive.tar`), and kickstart, preseed and
 * AutoYAST files to SLS. `bootstrap` makes a `dir` image's root and runs `debootstrap` for `deb` (false
 * without it, as Salt's); the yum and pacman bootstraps and sparse images are not built here.
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import {
  defineFunction,
  defineModule,
  type ExecContext,
  SALT_ERR_EXEC_COMMAND,
  SALT_ERR_INVOCATION,
} from '../kernel/index.js';
import { pySplitlines } from '../kernel/util.js';
import { bootstrapDeb, type DebOptions } from './_genesis-deb.js';
import { kickstartSls } from './_genesis-kickstart.js';
import { preseedSls, xmlToDict } from './_genesis-mksls.js';
import { pythonError } from './_py-exception.js';
import { which } from './_which.js';
import { parseXml } from './_xml-tree.js';
import { pyYamlDump } from './_yaml-dump.js';

const CMD_MAP: Readonly<Record<string, readonly string[]>> = {
  yum: ['yum', 'rpm'],
  deb: ['debootstrap'],
  pacman: ['pacman'],
};

/** salt.syspaths.BASE_FILE_ROOTS_DIR + `img`: where images are packed by default. */
const IMG_DIR = '/srv/salt/img';

/** `tar`'s compression flag and the file extension for a `compress` name. */
function compression(compress: unknown): [string, string] {
  if (['bz2', 'bzip2', 'j'].includes(String(compress))) return ['j', 'bz2'];
  if (['gz', 'gzip', 'z'].includes(String(compress))) return ['z', 'gz'];
  if (['xz', 'a', 'J'].includes(String(compress))) return ['J', 'xz'];
  throw pythonError(
    'UnboundLocalError',
    "cannot access local variable 'compression' where it is not associated with a value",
  );
}

/** Makes `dir` when missing; false when that fails (Salt's `{'Error': ...}` that pack/unpack drop). */
async function ensureDir(ctx: ExecContext, dir: string): Promise<boolean> {
  if (await ctx.call('file.directory_exists', [dir])) return true;
  try {
    await ctx.call('file.mkdir', [dir]);
    return true;
  } catch {
    return false;
  }
}

/** Salt's `ldd_deps`: every existing file `ldd` names, followed recursively, in the order found. */
async function lddDeps(ctx: ExecContext, filename: string | null, ret: unknown[]): Promise<unknown[]> {
  const file = filename !== null && existsSync(filename) ? filename : which(String(filename));
  const out = String(await ctx.call('cmd.run', [['ldd', file]], { python_shell: false }));
  for (const line of pySplitlines(out)) {
    if (!line.trim()) continue;
    let comps: string[];
    if (line.includes('=>')) {
      const right = line.split(' => ')[1];
      if (right === undefined) throw pythonError('IndexError', 'list index out of range');
      comps = right.trim().split(/\s+/);
    } else comps = line.trim().split(/\s+/);
    const dep = comps[0] && existsSync(comps[0]) ? comps[0] : '';
    if (dep && !ret.includes(dep)) {
      ret.push(dep);
      await lddDeps(ctx, dep, ret);
    }
  }
  return ret;
}

const cli = (...examples: string[]) =>
  `\n\nCLI Example:\n\n${examples.map((e) => `    salt myminion ${e}`).join('\n')}`;

export default defineModule({
  name: 'genesis',
  doc: 'Module for managing container and VM images',
  functions: {
    bootstrap: defineFunction({
      args: (z) =>
        z.object({
          platform: z.unknown(),
          root: z.string(),
          img_format: z.unknown().default('dir'),
          fs_format: z.unknown().default('ext2'),
          fs_opts: z.unknown().default(null),
          arch: z.unknown().default(null),
          flavor: z.unknown().default(null),
          repo_url: z.unknown().default(null),
          static_qemu: z.unknown().default(null),
          img_size: z.unknown().default(null),
          mount_dir: z.unknown().default(null),
          pkg_cache: z.unknown().default(null),
          pkgs: z.unknown().default(null),
          exclude_pkgs: z.unknown().default(null),
          epel_url: z
            .unknown()
            .default('http://download.fedoraproject.org/pub/epel/6/i386/epel-release-6-8.noarch.rpm'),
        }),
      doc: `Create an image for a platform (yum, deb or pacman) under root. img_format is dir (root is a directory) or sparse (root is an image file of img_size). For deb: arch, flavor (the release, e.g. bookworm), repo_url, static_qemu, pkgs, exclude_pkgs. Must run as root.${cli('genesis.bootstrap deb /root/debian arch=amd64 flavor=bookworm')}`,
      run: async (ctx, a) => {
        if (a.img_format !== 'dir' && a.img_format !== 'sparse')
          throw new SALT_ERR_INVOCATION('The img_format must be "sparse" or "dir"');
        if (a.img_format === 'sparse') {
          if (!a.img_size) throw new SALT_ERR_INVOCATION('An img_size must be specified for a sparse file');
          throw new SALT_ERR_EXEC_COMMAND('genesis.bootstrap: sparse images are not built by tsalt');
        }
        if (!(await ctx.call('file.directory_exists', [a.root]))) {
          try {
            await ctx.call('file.mkdir', [a.root]);
          } catch (err) {
            return { Error: (err as Error).message };
          }
        }
        const root = typeof a.mount_dir === 'string' && a.mount_dir ? a.mount_dir : a.root;
        if (a.platform === 'deb') {
          const deb: DebOptions = {
            arch: a.arch,
            flavor: a.flavor,
            repoUrl: a.repo_url,
            staticQemu: a.static_qemu,
            pkgs: a.pkgs ?? [],
            excludePkgs: a.exclude_pkgs ?? [],
          };
          await bootstrapDeb(ctx, root, deb);
        } else if (a.platform === 'yum' || a.platform === 'rpm' || a.platform === 'pacman') {
          throw new SALT_ERR_EXEC_COMMAND(
            `genesis.bootstrap: the ${String(a.platform)} platform is not built by tsalt`,
          );
        }
        return null;
      },
    }),
    avail_platforms: defineFunction({
      args: (z) => z.object({}),
      doc: `Which platforms can be bootstrapped here: each is true when all its tools are on PATH.${cli('genesis.avail_platforms')}`,
      run: () =>
        Object.fromEntries(
          Object.entries(CMD_MAP).map(([platform, cmds]) => [platform, cmds.every((c) => which(c) !== null)]),
        ),
    }),
    pack: defineFunction({
      args: (z) =>
        z.object({
          name: z.unknown(),
          root: z.unknown(),
          path: z.string().nullable().default(null),
          pack_format: z.unknown().default('tar'),
          compress: z.unknown().default('bzip2'),
        }),
      doc: `Pack a directory tree into <path>/<name>.tar.<ext> (path defaults to /srv/salt/img; compress: bzip2, gzip or xz).${cli('genesis.pack centos /root/centos', "genesis.pack centos /root/centos pack_format='tar'")}`,
      run: async (ctx, a) => {
        if (a.pack_format !== 'tar') return null;
        const path = a.path ?? IMG_DIR;
        if (!(await ensureDir(ctx, path))) return null;
        const [flag, ext] = compression(a.compress);
        await ctx.call('archive.tar', [], {
          options: `${flag}pcf`,
          tarfile: `${path}/${String(a.name)}.tar.${ext}`,
          sources: '.',
          dest: a.root,
        });
        return null;
      },
    }),
    unpack: defineFunction({
      args: (z) =>
        z.object({
          name: z.unknown(),
          dest: z.string().nullable().default(null),
          path: z.string().nullable().default(null),
          pack_format: z.unknown().default('tar'),
          compress: z.unknown().default('bz2'),
        }),
      doc: `Unpack <path>/<name>.tar.<ext> into dest (default: path, which defaults to /srv/salt/img).${cli('genesis.unpack centos /root/centos')}`,
      run: async (ctx, a) => {
        if (a.pack_format !== 'tar') return null;
        const path = a.path ?? IMG_DIR;
        const dest = a.dest || path;
        if (!(await ensureDir(ctx, dest))) return null;
        const [flag, ext] = compression(a.compress);
        await ctx.call('archive.tar', [], {
          options: `${flag}xf`,
          tarfile: `${path}/${String(a.name)}.tar.${ext}`,
          dest,
        });
        return null;
      },
    }),
    ldd_deps: defineFunction({
      args: (z) =>
        z.object({ filename: z.string().nullable(), ret: z.array(z.unknown()).nullable().default(null) }),
      doc: `The files a binary needs, as ldd reports them, followed recursively (not every dependency a package has).${cli('genesis.ldd_deps bash', 'genesis.ldd_deps /bin/bash')}`,
      run: (ctx, a) => lddDeps(ctx, a.filename, a.ret ?? []),
    }),
    mksls: defineFunction({
      args: (z) => z.object({ fmt: z.unknown(), src: z.string(), dst: z.string().nullable().default(null) }),
      doc: `Turn an installation file into SLS YAML: kickstart, preseed or autoyast. With dst, write it there.${cli('genesis.mksls kickstart /path/to/ks.cfg', 'genesis.mksls preseed /path/to/preseed.cfg', 'genesis.mksls autoyast /path/to/autoinst.xml /path/to/dest.sls')}`,
      run: async (_ctx, a) => {
        let data: unknown;
        if (a.fmt === 'preseed') data = preseedSls(await readSrc(a.src));
        else if (a.fmt === 'autoyast') data = xmlToDict(parseXml(Buffer.from(await readSrc(a.src))));
        else if (a.fmt === 'kickstart') data = kickstartSls(await readSrc(a.src));
        else return null;
        const yaml = pyYamlDump(data);
        if (a.dst === null) return yaml;
        await writeFile(a.dst, yaml);
        return null;
      },
    }),
  },
});

/** The source file's text, or Salt's error for a missing one. */
async function readSrc(src: string): Promise<string> {
  try {
    return await readFile(src, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'EISDIR' ? '[Errno 21] Is a directory' : '[Errno 2] No such file or directory';
    throw pythonError(code === 'EISDIR' ? 'IsADirectoryError' : 'FileNotFoundError', `${why}: '${src}'`);
  }
}
