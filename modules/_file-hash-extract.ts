/**
 * Salt's `file.extract_hash` and `file.get_source_sum`: the expected hash of a file, from a hash
 * expression (`<hash>`, `<type>=<hash>`) or from a hash file (a local path or any URL
 * `cp.cache_file` fetches) whose lines name files. A hash file's line is picked by
 * `source_hash_name`, then the managed file's name, then the source's name, else the first hash
 * seen. Errors are Salt 3006's messages.
 */
import { readFile } from 'node:fs/promises';
import { type ExecContext, SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import { pyIsSpace, pyRstrip } from '../kernel/python/index.js';
import { pyOsError } from './_py-oserror.js';

/** Salt's `HASHES`: each supported type and its hex length, longest first. */
export const HASHES: Readonly<Record<string, number>> = {
  sha512: 128,
  sha384: 96,
  sha256: 64,
  sha224: 56,
  sha1: 40,
  md5: 32,
};

/** The type a hex length names (Salt's `HASHES_REVMAP`). */
const TYPE_OF_LENGTH: Readonly<Record<number, string>> = Object.fromEntries(
  Object.entries(HASHES).map(([k, v]) => [v, k]),
);

/** Salt's `salt.utils.files.VALID_PROTOS`: the schemes a hash file may be fetched with. */
const VALID_PROTOS = ['salt', 'file', 'http', 'https', 'ftp', 'swift', 's3'];

/** Python's `string.whitespace`. */
const WHITESPACE = ' \t\n\r\v\f';

export interface HashMatch {
  hsum: string;
  hash_type: string;
}

/** The scheme, netloc and path of a URL as Python's `urllib.parse.urlsplit` splits them. */
function urlsplit(url: string): { scheme: string; netloc: string; path: string } {
  let rest = url;
  let scheme = '';
  const colon = url.indexOf(':');
  if (colon > 0 && /^[a-zA-Z][a-zA-Z0-9+.-]*$/.test(url.slice(0, colon))) {
    scheme = url.slice(0, colon).toLowerCase();
    rest = url.slice(colon + 1);
  }
  let netloc = '';
  if (rest.startsWith('//')) {
    const end = rest.slice(2).search(/[/?#]/);
    netloc = end < 0 ? rest.slice(2) : rest.slice(2, end + 2);
    rest = end < 0 ? '' : rest.slice(end + 2);
  }
  const path = rest.split('#')[0]!.split('?')[0]!;
  return { scheme, netloc, path };
}

const basename = (p: string) => p.slice(p.lastIndexOf('/') + 1);

/** Python's `str.strip()` with no argument. */
function pyStrip(s: string): string {
  let start = 0;
  while (start < s.length && pyIsSpace(s[start]!)) start++;
  return pyRstrip(s.slice(start));
}

/** Whether `line` names `name`: it ends with `base` after a separator, or starts with `name` and whitespace. */
function names(line: string, name: string, base: string, separators: string): boolean {
  if (line.endsWith(base)) {
    const at = line.length - base.length - 1;
    return at >= 0 && separators.includes(line[at]!);
  }
  return line.startsWith(name) && /\s/u.test(line.charAt(name.length));
}

/**
 * Salt's `extract_hash`: the hash in `text` (a hash file's contents) for the file named by
 * `sourceHashName`, `fileName` or `source` (in that order of preference), else the first
 * supported hash in it; `null` when it holds none.
 */
export function extractHashFrom(
  text: string,
  hashType: string | null | undefined,
  fileName: string | null | undefined,
  source: string | null | undefined,
  sourceHashName: string | null | undefined,
  warn: (msg: string) => void = () => {},
): HashMatch | null {
  let type = hashType ?? '';
  const wanted = HASHES[type];
  if (wanted === undefined && type) {
    warn(
      `file.extract_hash: Unsupported hash_type '${type}', falling back to matching any supported hash_type`,
    );
    type = '';
  }
  const lengths = wanted === undefined ? '32,128' : String(wanted);
  const hashRe = new RegExp(`(?<![a-z0-9])([a-f0-9]{${lengths}})(?![a-z0-9])`, 'i');
  const searches: Array<{ key: string; name: string; base: string; seps: string }> = [];
  if (sourceHashName)
    searches.push({ key: 'source_hash_name', name: sourceHashName, base: sourceHashName, seps: WHITESPACE });
  if (fileName)
    searches.push({ key: 'file_name', name: fileName, base: basename(fileName), seps: `${WHITESPACE}\\/*` });
  if (source) {
    const u = urlsplit(source);
    searches.push({
      key: 'source',
      name: source,
      base: basename(u.path || u.netloc),
      seps: `${WHITESPACE}\\/*`,
    });
  }
  let partial: HashMatch | null = null;
  const found = new Map<string, HashMatch>();
  for (const raw of text.split(/\r\n|\r|\n/)) {
    const line = pyStrip(raw);
    const hex = hashRe.exec(line)?.[1];
    const matchedType = hex === undefined ? undefined : TYPE_OF_LENGTH[hex.length];
    if (hex === undefined || matchedType === undefined) continue;
    const matched = { hsum: hex, hash_type: matchedType };
    partial ??= matched;
    for (const s of searches)
      if (!found.has(s.key) && names(line, s.name, s.base, s.seps)) found.set(s.key, matched);
  }
  for (const key of ['source_hash_name', 'file_name', 'source']) {
    const hit = found.get(key);
    if (hit) return hit;
  }
  return partial;
}

function invalidFormat(sourceHash: string): never {
  const lengths = Object.keys(TYPE_OF_LENGTH)
    .map(Number)
    .sort((a, b) => a - b)
    .map((n) => `${TYPE_OF_LENGTH[n]} (${n})`)
    .join(', ');
  throw new SALT_ERR_EXEC_COMMAND(
    `Source hash ${sourceHash} format is invalid. The supported formats are: 1) a hash, 2) an expression in the format <hash_type>=<hash>, or 3) either a path to a local file containing hashes, or a URI of a remote hash file. Supported protocols for remote hash files are: ${VALID_PROTOS.join(', ')}. The hash may also not be of a valid length, the following are supported hash types and lengths: ${lengths}.`,
  );
}

/** Reads a hash file as Salt's `extract_hash` does, its missing file an OS error as Python words it. */
export async function extractHash(
  hashFn: string,
  hashType: string | null | undefined,
  fileName: string | null | undefined,
  source: string | null | undefined,
  sourceHashName: string | null | undefined,
  warn?: (msg: string) => void,
): Promise<HashMatch | null> {
  let text: string;
  try {
    text = await readFile(hashFn, 'utf8');
  } catch (err) {
    throw new SALT_ERR_EXEC_COMMAND(pyOsError(err, hashFn));
  }
  return extractHashFrom(text, hashType, fileName, source, sourceHashName, warn);
}

/** A hash expression (`<type>=<hash>` or a bare hash) checked as Salt's `get_source_sum` checks it. */
function fromExpression(sourceHash: string): HashMatch {
  const eq = sourceHash.indexOf('=');
  let ret: HashMatch;
  if (eq >= 0) {
    const hashType = pyStrip(sourceHash.slice(0, eq));
    ret = { hash_type: hashType, hsum: pyStrip(sourceHash.slice(eq + 1)) };
  } else {
    if (!/^[0-9a-fA-F]+$/.test(sourceHash)) invalidFormat(sourceHash);
    const type = TYPE_OF_LENGTH[sourceHash.length];
    if (!type) invalidFormat(sourceHash);
    ret = { hsum: sourceHash, hash_type: type };
  }
  const want = HASHES[ret.hash_type];
  if (want === undefined)
    throw new SALT_ERR_EXEC_COMMAND(
      `Invalid hash type '${ret.hash_type}'. Supported hash types are: ${Object.keys(HASHES).join(', ')}. Either remove the hash type and simply use '${ret.hsum}' as the source_hash, or change the hash type to a supported type.`,
    );
  const len = ret.hsum.length;
  if (!TYPE_OF_LENGTH[len]) invalidFormat(sourceHash);
  if (len !== want)
    throw new SALT_ERR_EXEC_COMMAND(
      `Invalid length (${len}) for hash type '${ret.hash_type}'. Either remove the hash type and simply use '${ret.hsum}' as the source_hash, or change the hash type to '${TYPE_OF_LENGTH[len]}'`,
    );
  ret.hsum = ret.hsum.toLowerCase();
  return ret;
}

/**
 * Salt's `file.get_source_sum`: `{hsum, hash_type}` of `source` from `sourceHash`, a hash
 * expression, an absolute path of a hash file, or a URL of one (cached with `cp.cache_file`).
 */
export async function sourceSum(
  ctx: ExecContext,
  fileName: string,
  source: string,
  sourceHash: string,
  sourceHashName: string | null | undefined,
  saltenv: string,
  verifySsl = true,
): Promise<HashMatch> {
  let hashFn: string | undefined;
  if (sourceHash.startsWith('/')) hashFn = sourceHash;
  else {
    const proto = urlsplit(sourceHash).scheme;
    if (VALID_PROTOS.includes(proto)) {
      const got = await ctx.call('cp.cache_file', [sourceHash, saltenv], { verify_ssl: verifySsl });
      if (!got) throw new SALT_ERR_EXEC_COMMAND(`Source hash file ${sourceHash} not found`);
      hashFn = String(got);
    } else if (proto !== '') invalidFormat(sourceHash);
  }
  if (hashFn === undefined) return fromExpression(sourceHash);
  const ret = await extractHash(hashFn, '', fileName, source, sourceHashName, (m) => ctx.log.warn(m));
  if (!ret) invalidFormat(sourceHash);
  return { hsum: ret.hsum.toLowerCase(), hash_type: ret.hash_type };
}
