/**
 * Where a managed file's content comes from (Salt's `file.source_list`, `file.get_source_sum`
 * and the fetching part of `file.get_managed`): the first existing of a list of sources
 * (`salt://`, `http(s)://`, `file://`, absolute paths), the expected hash of a remote source
 * from `source_hash`, and the minion's file client that caches them.
 */
import { readFile } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import { type ExecContext, SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import { type FileClient, splitEnv } from './_file-client.js';
import { fileClientOf } from './_file-client-of.js';
import { lexists } from './_file-stat.js';

/** Salt's `CommandExecutionError` as file functions raise it: its message is what states quote. */
export const FileError = SALT_ERR_EXEC_COMMAND;

/** The minion's file client (as `cp` builds it). */
export function fileClient(ctx: ExecContext): FileClient {
  return fileClientOf(ctx);
}

/** The URL scheme of a source (`''` for a plain path), as `urllib.parse.urlparse(...).scheme`. */
export function schemeOf(source: string): string {
  const m = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(source);
  return m ? m[1]!.toLowerCase() : '';
}

/** The local path of a `file://` URL or plain path. */
export function localPath(source: string): string {
  return schemeOf(source) === 'file' ? decodeURIComponent(source.replace(/^file:\/\//i, '')) : source;
}

export type SourceSpec =
  | string
  | Record<string, string | null>
  | Array<string | Record<string, string | null>>;

async function headOk(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, { method: 'HEAD', redirect: 'follow' });
    return res.ok;
  } catch {
    return false;
  }
}

/**
 * Salt's `file.source_list`: for a list, the first source that exists (its own hash when given
 * as `{source: hash}`); a single source as is. Throws "none of the specified sources were found".
 */
export async function sourceList(
  ctx: ExecContext,
  source: SourceSpec | null | undefined,
  sourceHash: string | null | undefined,
  saltenv: string,
): Promise<[string | null, string | null]> {
  if (!Array.isArray(source)) {
    if (source && typeof source === 'object') {
      const [k, v] = Object.entries(source)[0] ?? [null, null];
      return [k, v || sourceHash || null];
    }
    return [source ?? null, sourceHash ?? null];
  }
  const fc = fileClient(ctx);
  const listed = new Map<string, Set<string>>();
  const served = async (env: string) => {
    let got = listed.get(env);
    if (!got) {
      got = new Set([...(await fc.fileList(env)), ...(await fc.dirList(env))]);
      listed.set(env, got);
    }
    return got;
  };
  for (const single of source) {
    let src: string;
    let hash = sourceHash ?? null;
    if (single && typeof single === 'object') {
      const keys = Object.keys(single);
      if (keys.length !== 1) continue;
      src = keys[0]!;
      hash = single[src] || sourceHash || null;
    } else src = String(single);
    const scheme = schemeOf(src);
    if (scheme === 'salt') {
      const [path, senv] = splitEnv(src);
      if ((await served(senv ?? saltenv)).has(path.replace(/^salt:\/\//, ''))) return [src, hash];
    } else if (scheme.startsWith('http') || scheme === 'ftp') {
      if (await headOk(src)) return [src, hash];
    } else if (scheme === 'file' || (!scheme && isAbsolute(src))) {
      if (await lexists(localPath(src))) return [src, hash];
    }
  }
  throw new FileError('none of the specified sources were found');
}

const HASH_LENGTHS: Record<number, string> = {
  32: 'md5',
  40: 'sha1',
  56: 'sha224',
  64: 'sha256',
  96: 'sha384',
  128: 'sha512',
};

/** `{hsum, hash_type}` from a bare or `type=hex` hash; undefined when it is not one. */
export function parseHash(text: string): { hsum: string; hash_type: string } | undefined {
  const t = text.trim();
  const eq = /^(\w+)=([0-9a-fA-F]+)$/.exec(t);
  if (eq) return { hash_type: eq[1]!.toLowerCase(), hsum: eq[2]!.toLowerCase() };
  if (/^[0-9a-fA-F]+$/.test(t) && HASH_LENGTHS[t.length])
    return { hash_type: HASH_LENGTHS[t.length]!, hsum: t.toLowerCase() };
  return undefined;
}

/**
 * Salt's `file.get_source_sum`: the expected hash of `source` from `sourceHash`, a hash or a
 * URL/path of a hash file (the line naming the source's file, or the first hash).
 */
export async function getSourceSum(
  ctx: ExecContext,
  source: string,
  sourceHash: string,
  sourceHashName: string | null | undefined,
  saltenv: string,
): Promise<{ hsum: string; hash_type: string }> {
  const direct = parseHash(sourceHash);
  if (direct) return direct;
  const scheme = schemeOf(sourceHash);
  if (!scheme && !isAbsolute(sourceHash)) {
    throw new FileError(
      `Source hash ${sourceHash} format is invalid. The supported formats are: 1) a hash, 2) an expression in the format <hash_type>=<hash>, or 3) either a path to a local file containing hashes, or a URI of a remote hash file. Supported protocols for remote hash files are: salt, file, http, https, ftp, swift, s3. The hash may also not be of a valid length, the following are supported hash types and lengths: md5 (32), sha1 (40), sha224 (56), sha256 (64), sha384 (96), sha512 (128).`,
    );
  }
  const cached = await fileClient(ctx).cacheFile(sourceHash, saltenv);
  if (!cached) throw new FileError(`Source hash file ${sourceHash} not found`);
  const text = await readFile(cached, 'utf8');
  const want = sourceHashName ?? source.split('/').pop() ?? '';
  const lines = text.split('\n').filter((l) => l.trim());
  const pick = lines.find((l) => l.includes(want)) ?? (lines.length === 1 ? lines[0] : undefined);
  const found = pick ? parseHash(pick.trim().split(/\s+/)[0] ?? '') : undefined;
  if (!found)
    throw new FileError(
      `Source hash file ${sourceHash} contains an invalid hash format, it must be in the format <hash type>=<hash>`,
    );
  return found;
}
