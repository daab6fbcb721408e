/**
 * Salt's `file.cached` and `file.not_cached` states (`salt/states/file.py`): a URL (`salt://`,
 * `http(s)://`, `ftp://`, ...) held in, or out of, the minion's file cache, checked against a
 * `source_hash` when one is given; a local path is only checked to exist.
 */
import { realpathSync } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { SaltError } from '../kernel/errors.js';
import { getSourceSum, localPath, schemeOf } from '../modules/_file-source.js';
import { defineState, type StateContext, type StateReturn } from '../plugins/states/index.js';
import { expandUser } from './_file-common.js';

const LOCAL_PROTOS = ['', 'file'];
const REMOTE_PROTOS = ['http', 'https', 'ftp', 'swift', 's3'];

/** Salt's `redact_http_basic_auth`: `user:password@` in an http(s) URL becomes `<redacted>@`. */
const redact = (url: string): string => url.replace(/^(https?:\/\/)[^/@]*@/i, '$1<redacted>@');

/** `os.path.realpath(os.path.expanduser(urlparse(name).path))` */
function localFullPath(name: string): string {
  const expanded = expandUser(localPath(name));
  try {
    return realpathSync(expanded);
  } catch {
    return expanded;
  }
}

const exists = (p: string) =>
  stat(p).then(
    () => true,
    () => false,
  );

async function hashOf(ctx: StateContext, path: string, type: string): Promise<string> {
  return String(await ctx.call('file.get_hash', [path, type]));
}

async function isCached(ctx: StateContext, name: string, saltenv: string): Promise<string> {
  return String((await ctx.call('cp.is_cached', [name], { saltenv })) ?? '');
}

export const cached = defineState({
  args: (z) =>
    z.object({
      name: z.string(),
      source_hash: z.string().default(''),
      source_hash_name: z.string().nullish(),
      skip_verify: z.boolean().default(false),
      saltenv: z.string().default('base'),
      use_etag: z.boolean().default(false),
    }),
  doc: "Ensures that a file is saved to the minion's cache. This state is primarily invoked by other states to ensure that we do not re-download a source file if we do not need to.\n\nname: the URL of the file.\nsource_hash: its hash, a hash type=hash, or the URL of a hash file (required for a remote URL unless skip_verify or use_etag).\nsource_hash_name: the file name to look for in a hash file.\nskip_verify: do not check the hash.\nsaltenv: the file server environment.\nuse_etag: re-download only when the server's ETag changed.",
  async run(ctx, a): Promise<StateReturn> {
    const { name, saltenv } = a;
    const ret: StateReturn = { changes: {}, comment: '', name, result: false };
    const scheme = schemeOf(name);
    const hashType = typeof ctx.opts.hash_type === 'string' ? ctx.opts.hash_type : 'sha256';
    if (!a.skip_verify && !a.source_hash && !a.use_etag && REMOTE_PROTOS.includes(scheme)) {
      ret.comment = `Unable to verify upstream hash of source file ${redact(name)}, please set source_hash or set skip_verify or use_etag to True`;
      return ret;
    }
    let sum: { hsum: string; hash_type: string } | undefined;
    if (a.source_hash) {
      try {
        sum = await getSourceSum(ctx, name, a.source_hash, a.source_hash_name, saltenv);
      } catch (err) {
        ret.comment = err instanceof SaltError ? err.message : String(err);
        return ret;
      }
    }
    if (ctx.test) {
      const local = await isCached(ctx, name, saltenv);
      if (!local) ret.comment = `File will be cached: ${name}`;
      else if (!sum) ret.comment = `No hash found. File will be cached: ${name}`;
      else if ((await hashOf(ctx, local, hashType)) === sum.hsum)
        ret.comment = `File already cached: ${name}`;
      else ret.comment = `Hashes don't match.\nFile will be cached: ${name}`;
      return { ...ret, changes: {}, result: null };
    }
    if (LOCAL_PROTOS.includes(scheme)) {
      const full = localFullPath(name);
      if (!(await exists(full))) return { ...ret, comment: `File ${full} is not present on the minion` };
      if (a.skip_verify || !sum)
        return { ...ret, result: true, comment: `File ${full} is present on the minion` };
      const local = await hashOf(ctx, full, sum.hash_type);
      if (local === sum.hsum)
        return {
          ...ret,
          result: true,
          comment: `File ${full} is present on the minion and has hash ${local}`,
        };
      return {
        ...ret,
        comment: `File ${full} is present on the minion, but the hash (${local}) does not match the specified hash (${sum.hsum})`,
      };
    }
    const type = sum?.hash_type ?? hashType;
    const before = await isCached(ctx, name, saltenv);
    const preHash = before ? await hashOf(ctx, before, type) : null;
    let local: string;
    try {
      local = String(
        (await ctx.call('cp.cache_file', [name], {
          saltenv,
          source_hash: sum?.hsum ?? null,
          use_etag: a.use_etag,
        })) || '',
      );
    } catch (err) {
      return { ...ret, comment: redact(err instanceof Error ? err.message : String(err)) };
    }
    if (!local)
      return { ...ret, comment: `Failed to cache ${redact(name)}, check minion log for more information` };
    const postHash = await hashOf(ctx, local, type);
    if (preHash !== postHash) ret.changes.hash = { old: preHash, new: postHash };
    if (!a.skip_verify && sum) {
      if (postHash === sum.hsum)
        return { ...ret, result: true, comment: `File is already cached to ${local} with hash ${postHash}` };
      return {
        ...ret,
        comment: `File is cached to ${local}, but the hash (${postHash}) does not match the specified hash (${sum.hsum})`,
      };
    }
    return { ...ret, result: true, comment: `File is cached to ${local}` };
  },
});

export const notCached = defineState({
  args: (z) => z.object({ name: z.string(), saltenv: z.string().default('base') }),
  doc: "Ensures that a file is not present in the minion's cache, deleting it if found.\n\nname: the URL of the file.\nsaltenv: the file server environment.",
  async run(ctx, a): Promise<StateReturn> {
    const ret: StateReturn = { changes: {}, comment: '', name: a.name, result: false };
    if (LOCAL_PROTOS.includes(schemeOf(a.name))) {
      return {
        ...ret,
        result: true,
        comment: `File ${localFullPath(a.name)} is a local path, no action taken`,
      };
    }
    const local = await isCached(ctx, a.name, a.saltenv);
    if (!local) return { ...ret, result: true, comment: `${a.name} is not cached` };
    try {
      await rm(local);
    } catch (err) {
      return { ...ret, comment: `Failed to delete ${local}: ${(err as Error).message}` };
    }
    return { ...ret, result: true, changes: { deleted: true }, comment: `${local} was deleted` };
  },
});
