/**
 * Salt's `state.pkg` (`salt/modules/state.py`): runs a packaged state run, the tarball salt-ssh
 * sends to a host. The tarball holds `lowstate.json` (the compiled low chunks), optionally
 * `pillar.json` (the pillar the run sees, over the compiled one), and one folder per saltenv
 * with the files the chunks reference (`salt://` paths). As Salt's: an absent file, a wrong sum
 * or a member that would land outside the unpack folder answers {}; the folders become the
 * run's only `file_roots` (served locally), and the retcode is 2 when a state failed.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type ExecContext, RetcodeResult, SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import { PY_HASH_NAMES } from '../kernel/util.js';
import type { LowChunk } from '../plugins/states/index.js';
import { execCommand } from './_pkg-exec.js';
import { pythonError } from './_py-exception.js';
import { pyOsError } from './_py-oserror.js';
import { checkResult, EX_STATE_FAILURE, freshStateCall, runLow } from './_state-run.js';
import { isMapping } from './_traverse.js';

/** The hash constructors Python's `hashlib` has as attributes (what `get_hash` accepts; shake_* need a length). */
const HASHLIB = new Set([
  'md5',
  'sha1',
  'sha224',
  'sha256',
  'sha384',
  'sha512',
  'sha3_224',
  'sha3_256',
  'sha3_384',
  'sha3_512',
  'blake2b',
  'blake2s',
]);

/** Salt's `get_hash`: the hex digest of a file; an unknown hash type is its ValueError. */
async function fileDigest(file: string, hashType: string): Promise<string> {
  if (!HASHLIB.has(hashType)) throw pythonError('ValueError', `Invalid hash type: ${hashType}`);
  return createHash(PY_HASH_NAMES[hashType] ?? hashType)
    .update(await readFile(file))
    .digest('hex');
}

const isFile = (p: string) =>
  stat(p).then(
    (s) => s.isFile(),
    () => false,
  );

/** The member names of a gzipped tar, or Salt's failure to open it as one. */
async function tarNames(ctx: ExecContext, file: string): Promise<string[]> {
  const r = await execCommand(['tar', '-t', '-z', '--quoting-style=literal', '-f', file], {
    signal: ctx.signal,
  });
  if (r.retcode !== 0) throw pythonError('tarfile.ReadError', 'not a gzip file');
  return r.stdout.split('\n').filter(Boolean);
}

/** A member Salt refuses: absolute, or with a `../` anywhere in it. */
const unsafe = (name: string) => name.startsWith('/') || name.startsWith('../') || name.includes('../');

async function readJson(file: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(file, 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code) throw pythonError('FileNotFoundError', pyOsError(err, file));
    throw pythonError('json.decoder.JSONDecodeError', String((err as Error).message));
  }
}

/**
 * Runs `fn` with the job's options replaced by `opts` (Salt builds its State from a copy of the
 * options, `popts`). Every function the run calls, the state functions included, reads the
 * job's context, so the options are swapped on it for the run and put back after.
 */
async function withOptions<T>(
  ctx: ExecContext,
  opts: Record<string, unknown>,
  fn: () => Promise<T>,
): Promise<T> {
  const held = Object.getOwnPropertyDescriptor(ctx, 'opts');
  if (held && !held.configurable)
    throw new SALT_ERR_EXEC_COMMAND('state.pkg cannot change the options of this context');
  Object.defineProperty(ctx, 'opts', {
    value: Object.freeze(opts),
    configurable: true,
    enumerable: true,
    writable: false,
  });
  try {
    return await fn();
  } finally {
    if (held) Object.defineProperty(ctx, 'opts', held);
    else Reflect.deleteProperty(ctx, 'opts');
  }
}

export interface PkgCall {
  pkgPath: string;
  pkgSum: string;
  hashType: string;
  test: unknown;
  kwargs: Readonly<Record<string, unknown>>;
}

/** Salt's `state.pkg`. */
export async function statePkg(ctx: ExecContext, a: PkgCall): Promise<unknown> {
  if (!(await isFile(a.pkgPath))) return {};
  if ((await fileDigest(a.pkgPath, a.hashType)) !== a.pkgSum) return {};
  const names = await tarNames(ctx, a.pkgPath);
  if (names.some(unsafe)) return {};
  const root = await mkdtemp(path.join(tmpdir(), 'tmp'));
  try {
    const x = await execCommand(['tar', '-x', '-z', '-f', a.pkgPath, '-C', root], { signal: ctx.signal });
    if (x.retcode !== 0) throw new SALT_ERR_EXEC_COMMAND(x.stderr);
    const lowstate = await readJson(path.join(root, 'lowstate.json'));
    const chunks = Array.isArray(lowstate) ? lowstate : [];
    if (!Array.isArray(lowstate) || chunks.some((c) => !isMapping(c))) return lowstate;
    const pillarFile = path.join(root, 'pillar.json');
    const pillar = (await isFile(pillarFile)) ? await readJson(pillarFile) : undefined;
    const fileRoots: Record<string, string[]> = {};
    for (const entry of await readdir(root, { withFileTypes: true }))
      if (entry.isDirectory()) fileRoots[entry.name] = [path.join(root, entry.name)];
    const opts = { ...ctx.opts, file_client: 'local', file_roots: fileRoots };
    const ret = await withOptions(ctx, opts, async () => {
      const call = await freshStateCall(ctx, {
        ...a.kwargs,
        test: a.test,
        ...(isMapping(pillar) ? { pillar } : {}),
      });
      return runLow(call, chunks as LowChunk[]);
    });
    return checkResult(ret, chunks as LowChunk[]) ? ret : new RetcodeResult(ret, EX_STATE_FAILURE);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
