/**
 * Salt's `cp` execution module (`salt/modules/cp.py`): copies files from the master's file
 * server (or, with `file_client: local`, from the minion's own `file_roots`) and from URLs to
 * the minion, keeps the minion's file cache, lists what the master serves, and pushes minion
 * files to the master. Returns what Salt 3006 returns: paths, `''` or `False` when there is
 * nothing, lists.
 */
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { z as Zod } from 'zod';
import { defineFunction, defineModule, type ExecContext } from '../kernel/index.js';
import { pyFlag } from './_coerce.js';
import { cacheDest, recv, recvChunked } from './_cp-recv.js';
import { masterChannel } from './_file-channel.js';
import type { FileClient } from './_file-client.js';
import { fileClientOf } from './_file-client-of.js';
import { pushDir, pushFile } from './_file-push.js';
import { renderText } from './_file-template.js';
import { fnmatch } from './_fnmatch.js';
import { cleanKwargs } from './_invalid-kwargs.js';

const client = fileClientOf;

/** `saltenv` or the minion's `saltenv` option or `base`. */
function envOf(ctx: ExecContext, saltenv: string | null | undefined): string {
  if (saltenv) return saltenv;
  return typeof ctx.opts.saltenv === 'string' && ctx.opts.saltenv ? ctx.opts.saltenv : 'base';
}

/** `salt://x?saltenv=dev` → `['salt://x', 'dev']`, as `url.split_env`. */
function splitEnv(path: string): [string, string | undefined] {
  if (!path.startsWith('salt://') || path.startsWith('salt://|')) return [path, undefined];
  const q = path.indexOf('?');
  if (q < 0) return [path, undefined];
  const env = new URLSearchParams(path.slice(q + 1)).get('saltenv') ?? undefined;
  return [path.slice(0, q), env];
}

/** Salt's `check_include_exclude`: globs, or regular expressions prefixed with `E@`. */
function includeExclude(include?: string | null, exclude?: string | null): (rel: string) => boolean {
  const match = (rel: string, pat: string) =>
    pat.startsWith('E@') ? new RegExp(pat.slice(2)).test(rel) : fnmatch(rel, pat);
  return (rel) => {
    if (include && !match(rel, include)) return false;
    if (exclude && match(rel, exclude)) return false;
    return true;
  };
}

/** Salt's `_render_filenames`: with `template`, the source and destination names rendered. */
async function renderFilenames(
  ctx: ExecContext,
  fc: FileClient,
  template: string | null | undefined,
  path: string,
  dest: string,
  saltenv: string,
  kwargs: Readonly<Record<string, unknown>>,
): Promise<{ path: string; dest: string }> {
  if (!template) return { path, dest };
  const extra = cleanKwargs(kwargs);
  return {
    path: await renderText(ctx, fc, template, path, '<path>', saltenv, extra),
    dest: await renderText(ctx, fc, template, dest, '<dest>', saltenv, extra),
  };
}

function cli(example: string): string {
  return `\n\nCLI Example:\n\n.. code-block:: bash\n\n    ${example}`;
}

const env = (z: typeof Zod) => z.string().nullish();
const str = (z: typeof Zod) => z.union([z.string(), z.number()]).transform(String);

export default defineModule({
  name: 'cp',
  doc: 'Minion side functions for salt-cp: copy files from the master and from URLs, list and cache what the master serves, and push files to the master.',
  functions: {
    get_file: defineFunction({
      args: (z) =>
        z.object({
          path: str(z),
          dest: str(z),
          saltenv: env(z),
          makedirs: pyFlag(z, false),
          template: z.string().nullish(),
          gzip: z.union([z.number(), z.string()]).nullish(),
        }),
      varkw: true,
      doc: `Copy a file from the master (salt://path) to dest on the minion, which may be a directory. Returns the path written, or '' when the master does not serve the file (False when the destination's folder is missing and makedirs is False). gzip=1..9 compresses the transfer. An unchanged file already at dest is not fetched again.${cli("salt '*' cp.get_file salt://path/to/file /minion/dest makedirs=True")}`,
      run: async (ctx, a, extra) => {
        const saltenv = envOf(ctx, a.saltenv);
        const fc = client(ctx);
        const names = await renderFilenames(ctx, fc, a.template, a.path, a.dest, saltenv, extra.kwargs);
        const [path, senv] = splitEnv(names.path);
        if (!(await fc.hashFile(path, senv ?? saltenv))) return '';
        return fc.getFile(path, names.dest, a.makedirs, senv ?? saltenv, a.gzip ? Number(a.gzip) : undefined);
      },
    }),
    get_template: defineFunction({
      args: (z) =>
        z.object({
          path: str(z),
          dest: z.string().nullable(),
          template: z.string().default('jinja'),
          saltenv: env(z),
          makedirs: pyFlag(z, false),
        }),
      varkw: true,
      doc: `Render a file from the master with a template engine (jinja by default, with grains, pillar, opts, salt and the extra keyword arguments as variables) and write the result to dest. Returns dest, or '' when the file is missing, the engine unknown or the render fails (the error, with its file and line, is logged).${cli("salt '*' cp.get_template salt://path/to/template /minion/dest")}`,
      run: async (ctx, a, extra) => {
        const saltenv = envOf(ctx, a.saltenv);
        const fc = client(ctx);
        const [path, senv] = splitEnv(a.path);
        const env = senv ?? saltenv;
        const src = await fc.cacheFile(path, env);
        if (!src) return '';
        let text: string;
        try {
          text = await renderText(
            ctx,
            fc,
            a.template,
            await readFile(src, 'utf8'),
            path,
            env,
            cleanKwargs(extra.kwargs),
          );
        } catch (err) {
          ctx.log.error(`Failed to render template with error: ${(err as Error).message}`);
          return '';
        }
        let dest = a.dest ?? '';
        let makedirs = a.makedirs;
        if (!dest) {
          dest = join(String(ctx.opts.cachedir), 'extrn_files', env, path.replace(/^salt:\/\//, ''));
          makedirs = true;
        }
        if (!(await stat(dirname(dest)).catch(() => undefined))) {
          if (!makedirs) return '';
          await mkdir(dirname(dest), { recursive: true });
        }
        await writeFile(dest, text);
        return dest;
      },
    }),
    get_dir: defineFunction({
      args: (z) =>
        z.object({
          path: str(z),
          dest: str(z),
          saltenv: env(z),
          template: z.string().nullish(),
          gzip: z.union([z.number(), z.string()]).nullish(),
        }),
      varkw: true,
      doc: `Copy a directory from the master recursively: salt://a/b lands in dest/b/. Returns the list of paths written.${cli("salt '*' cp.get_dir salt://path/to/dir/ /minion/dest")}`,
      run: (ctx, a) =>
        client(ctx).getDir(a.path, a.dest, envOf(ctx, a.saltenv), a.gzip ? Number(a.gzip) : undefined),
    }),
    get_url: defineFunction({
      args: (z) =>
        z.object({
          path: str(z),
          dest: z.string().nullable().default(''),
          saltenv: env(z),
          makedirs: pyFlag(z, false),
          source_hash: z.string().nullish(),
        }),
      doc: `Copy a file from a URL (salt://, http://, https://, file:// or an absolute path) to dest. With no dest the file is cached on the minion and its cache path returned; with dest=None its contents are returned. False or '' when it cannot be fetched.${cli("salt '*' cp.get_url salt://my/file /tmp/this_file_is_mine\n    salt '*' cp.get_url http://www.slashdot.org /tmp/index.html")}`,
      run: async (ctx, a) => {
        const saltenv = envOf(ctx, a.saltenv);
        const result = await client(ctx).getUrl(a.path, a.dest, a.makedirs, saltenv);
        if (!result) ctx.log.error(`Unable to fetch file ${a.path} from saltenv ${saltenv}.`);
        return result;
      },
    }),
    get_file_str: defineFunction({
      args: (z) => z.object({ path: str(z), saltenv: env(z) }),
      doc: `Download a file from a URL to the minion cache and return its contents as a string (False when it cannot be fetched).${cli("salt '*' cp.get_file_str salt://my/file")}`,
      run: async (ctx, a) => {
        const [path, senv] = splitEnv(a.path);
        const fc = client(ctx);
        const got = await fc.cacheFile(path, senv ?? envOf(ctx, a.saltenv));
        if (typeof got !== 'string' || !got) return got;
        return readFile(got, 'utf8').catch(() => false);
      },
    }),
    cache_dest: defineFunction({
      args: (z) => z.object({ url: str(z), saltenv: env(z) }),
      doc: `Returns the expected cache path for the file, if cached using cp.cache_file.${cli("salt '*' cp.cache_dest https://foo.com/bar.rpm")}`,
      run: (ctx, a) =>
        cacheDest(String(ctx.opts.cachedir ?? '/var/cache/salt/minion'), a.url, envOf(ctx, a.saltenv)),
    }),
    recv: defineFunction({
      args: (z) => z.object({ files: z.record(z.string(), z.unknown()), dest: str(z) }),
      doc: 'Used with salt-cp, pass the files dict, and the destination. This function receives small fast copy files from the master via salt-cp. It does not work via the CLI.',
      run: (_ctx, a) => recv(a.files, a.dest),
    }),
    recv_chunked: defineFunction({
      args: (z) =>
        z.object({
          dest: str(z),
          chunk: z.string().nullable(),
          append: pyFlag(z, false),
          compressed: pyFlag(z, true),
          mode: z.number().int().nullish(),
        }),
      doc: 'This function receives files copied to the minion using salt-cp and is not intended to be used directly on the CLI.',
      run: (_ctx, a) => recvChunked(a.dest, a.chunk, a.append, a.compressed, a.mode),
    }),
    cache_file: defineFunction({
      args: (z) =>
        z.object({
          path: str(z),
          saltenv: env(z),
          source_hash: z.string().nullish(),
          verify_ssl: pyFlag(z, true),
          use_etag: pyFlag(z, false),
        }),
      doc: `Cache a single file on the minion: salt:// files under <cachedir>/files/<saltenv>/, URLs under <cachedir>/extrn_files/. Returns the cache path, or False.${cli("salt '*' cp.cache_file salt://path/to/file")}`,
      run: async (ctx, a) => {
        const [path, senv] = splitEnv(a.path);
        const saltenv = senv ?? envOf(ctx, a.saltenv);
        const result = await client(ctx).cacheFile(path, saltenv);
        if (!result && !a.use_etag)
          ctx.log.error(`Unable to cache file '${path}' from saltenv '${saltenv}'.`);
        return result;
      },
    }),
    cache_files: defineFunction({
      args: (z) => z.object({ paths: z.union([z.string(), z.array(z.string())]), saltenv: env(z) }),
      doc: `Cache a list of files (a list or a comma-separated string) on the minion; returns the list of cache paths (False for each file that could not be cached).${cli("salt '*' cp.cache_files salt://pathto/file1,salt://pathto/file1")}`,
      run: async (ctx, a) => {
        const fc = client(ctx);
        const paths = typeof a.paths === 'string' ? a.paths.split(',') : a.paths;
        const out: Array<string | false> = [];
        for (const p of paths) out.push(await fc.cacheFile(p, envOf(ctx, a.saltenv)));
        return out;
      },
    }),
    cache_dir: defineFunction({
      args: (z) =>
        z.object({
          path: str(z),
          saltenv: env(z),
          include_empty: pyFlag(z, false),
          include_pat: z.string().nullish(),
          exclude_pat: z.string().nullish(),
        }),
      doc: `Download and cache everything under a salt:// directory on the minion; include_pat/exclude_pat filter by glob (or regex with an E@ prefix); include_empty creates the empty directories too. Returns the list of cache paths.${cli("salt '*' cp.cache_dir salt://path/to/dir include_pat='E@*.py$'")}`,
      run: (ctx, a) =>
        client(ctx).cacheDir(
          a.path,
          envOf(ctx, a.saltenv),
          a.include_empty,
          includeExclude(a.include_pat, a.exclude_pat),
        ),
    }),
    cache_master: defineFunction({
      args: (z) => z.object({ saltenv: env(z) }),
      doc: `Cache every file the master serves in the saltenv; returns the list of cache paths.${cli("salt '*' cp.cache_master")}`,
      run: async (ctx, a) => {
        const fc = client(ctx);
        const saltenv = envOf(ctx, a.saltenv);
        const out: Array<string | false> = [];
        for (const rel of await fc.fileList(saltenv)) {
          out.push(await fc.cacheFile(`salt://${rel.includes('?') ? `|${rel}` : rel}`, saltenv));
        }
        return out;
      },
    }),
    cache_local_file: defineFunction({
      args: (z) => z.object({ path: str(z) }),
      doc: `Cache a local file on the minion under <cachedir>/localfiles/ (not copied again when unchanged); returns the cache path, or '' when the file does not exist.${cli("salt '*' cp.cache_local_file /etc/hosts")}`,
      run: async (ctx, a) => {
        if (!(await stat(a.path).catch(() => undefined))) return '';
        const fc = client(ctx);
        const cached = await fc.isCached(a.path, envOf(ctx, undefined));
        if (cached) {
          const [mine, theirs] = await Promise.all([
            fc.hashFile(a.path, 'base'),
            fc.hashFile(cached, 'base'),
          ]);
          if (mine && theirs && 'hsum' in mine && 'hsum' in theirs && mine.hsum === theirs.hsum)
            return cached;
        }
        return fc.cacheLocalFile(a.path);
      },
    }),
    list_states: defineFunction({
      args: (z) => z.object({ saltenv: env(z) }),
      doc: `List the SLS names the master serves in the saltenv.${cli("salt '*' cp.list_states")}`,
      run: (ctx, a) => client(ctx).listStates(envOf(ctx, a.saltenv)),
    }),
    list_master: defineFunction({
      args: (z) => z.object({ saltenv: env(z), prefix: z.string().default('') }),
      doc: `List the files the master serves in the saltenv (those under prefix only, when given).${cli("salt '*' cp.list_master")}`,
      run: (ctx, a) => client(ctx).fileList(envOf(ctx, a.saltenv), a.prefix),
    }),
    list_master_dirs: defineFunction({
      args: (z) => z.object({ saltenv: env(z), prefix: z.string().default('') }),
      doc: `List the directories the master serves in the saltenv.${cli("salt '*' cp.list_master_dirs")}`,
      run: (ctx, a) => client(ctx).dirList(envOf(ctx, a.saltenv), a.prefix),
    }),
    list_master_symlinks: defineFunction({
      args: (z) => z.object({ saltenv: env(z), prefix: z.string().default('') }),
      doc: `List the symlinks the master serves in the saltenv, as {link: target}.${cli("salt '*' cp.list_master_symlinks")}`,
      run: (ctx, a) => client(ctx).symlinkList(envOf(ctx, a.saltenv), a.prefix),
    }),
    list_minion: defineFunction({
      args: (z) => z.object({ saltenv: env(z) }),
      doc: `List the files cached on the minion for the saltenv (and local files cached), as full paths.${cli("salt '*' cp.list_minion")}`,
      run: (ctx, a) => client(ctx).fileLocalList(envOf(ctx, a.saltenv)),
    }),
    is_cached: defineFunction({
      args: (z) => z.object({ path: str(z), saltenv: env(z) }),
      doc: `Return the path of a file's cached copy on the minion, or '' when it is not cached.${cli("salt '*' cp.is_cached salt://path/to/file")}`,
      run: (ctx, a) => {
        const [path, senv] = splitEnv(a.path);
        return client(ctx).isCached(path, senv ?? envOf(ctx, a.saltenv));
      },
    }),
    hash_file: defineFunction({
      args: (z) => z.object({ path: str(z), saltenv: env(z) }),
      doc: `Return the hash of a file: {hsum, hash_type} from the master for salt:// paths ('' when not served), of the local file otherwise ({} when missing).${cli("salt '*' cp.hash_file salt://path/to/file")}`,
      run: (ctx, a) => {
        const [path, senv] = splitEnv(a.path);
        return client(ctx).hashFile(path, senv ?? envOf(ctx, a.saltenv));
      },
    }),
    stat_file: defineFunction({
      args: (z) => z.object({ path: str(z), saltenv: env(z), octal: pyFlag(z, true) }),
      doc: `Return the permissions of a file the master serves, as an octal string (the raw mode with octal=False); None when not served.${cli("salt '*' cp.stat_file salt://path/to/file")}`,
      run: async (ctx, a) => {
        const [path, senv] = splitEnv(a.path);
        const st = (await client(ctx).hashAndStat(path, senv ?? envOf(ctx, a.saltenv)))[1];
        if (!Array.isArray(st) || typeof st[0] !== 'number') return null;
        return a.octal ? `0${(st[0] & 0o7777).toString(8).padStart(3, '0')}` : st[0];
      },
    }),
    envs: defineFunction({
      doc: `List the saltenvs the master serves.${cli("salt '*' cp.envs")}`,
      run: (ctx) => client(ctx).envs(),
    }),
    push: defineFunction({
      args: (z) =>
        z.object({
          path: str(z),
          keep_symlinks: pyFlag(z, false),
          upload_path: z.string().nullish(),
          remove_source: pyFlag(z, false),
        }),
      doc: `Send a minion file (an absolute path) to the master, which stores it under <cachedir>/minions/<minion id>/files/<path> (or upload_path). The master must have file_recv: True; files over file_recv_max_size MiB are refused. Returns True, or False.${cli("salt '*' cp.push /etc/fstab upload_path='/new/path/fstab'")}`,
      run: (ctx, a) => pushFile(pushOptions(ctx), a.path, a.keep_symlinks, a.upload_path, a.remove_source),
    }),
    push_dir: defineFunction({
      args: (z) => z.object({ path: str(z), glob: z.string().nullish(), upload_path: z.string().nullish() }),
      doc: `Send every file under a minion directory to the master (as cp.push), those whose name matches glob only when given. Returns True, or False.${cli("salt '*' cp.push_dir /etc/modprobe.d/ glob='*.conf'")}`,
      run: (ctx, a) => pushDir(pushOptions(ctx), a.path, a.glob, a.upload_path),
    }),
  },
});

function pushOptions(ctx: ExecContext) {
  const size = Number(
    ctx.opts.file_buffer_size ?? (ctx.opts.extra as Record<string, unknown> | undefined)?.file_buffer_size,
  );
  return {
    id: ctx.id,
    bufferSize: Number.isSafeInteger(size) && size > 0 ? size : 262144,
    request: masterChannel(ctx),
    log: ctx.log,
  };
}
