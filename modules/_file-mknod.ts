/**
 * Salt's special-file functions of the `file` module (`salt/modules/file.py` `mknod`,
 * `mknod_chrdev`, `mknod_blkdev`, `mknod_fifo`, `get_devmm`): character and block devices and
 * FIFOs made with the system's `mknod` (Node has no mknod(2)), then owner and mode set as
 * Salt's `check_perms` does; an existing path is left alone ("exists and cannot be overwritten").
 */
import { execFile } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import { promisify } from 'node:util';
import type { z as Zod } from 'zod';
import {
  defineFunction,
  type ExecContext,
  SALT_ERR_EXEC_COMMAND,
  SALT_ERR_INVOCATION,
} from '../kernel/index.js';
import { cli, expand, owner, str } from './_file-args.js';
import { checkPerms, type Owner } from './_file-perms.js';
import { lexists } from './_file-stat.js';

const run = promisify(execFile);

/** The kind of node: its `mknod` type letter and the words of Salt's messages. */
const KINDS = {
  c: { word: 'Character device' },
  b: { word: 'Block device' },
  p: { word: 'Fifo pipe' },
} as const;
type Kind = keyof typeof KINDS;

/** The node's mode as Salt computes it (`int(str(mode).lstrip("0Oo"), 8)`), less the umask as mknod(2) applies it. */
async function createMode(mode: unknown): Promise<string> {
  const bits = Number.parseInt(String(mode).replace(/^[0Oo]+/, '') || '0', 8);
  if (Number.isNaN(bits))
    throw new SALT_ERR_INVOCATION(`invalid literal for int() with base 8: '${String(mode)}'`);
  const status = await readFile('/proc/self/status', 'utf8').catch(() => '');
  const umask = Number.parseInt(/^Umask:\s*([0-7]+)/m.exec(status)?.[1] ?? '022', 8);
  return (bits & ~umask & 0o7777).toString(8);
}

/** Major and minor of a Linux `st_rdev` (glibc's `gnu_dev_major`/`gnu_dev_minor`). */
export function devMajorMinor(rdev: bigint): [number, number] {
  const major = ((rdev >> 8n) & 0xfffn) | ((rdev >> 32n) & ~0xfffn);
  const minor = (rdev & 0xffn) | ((rdev >> 12n) & ~0xffn);
  return [Number(major), Number(minor)];
}

/** Salt's `get_devmm`: `[major, minor]` of a character or block device, else `[0, 0]`. */
export async function getDevmm(name: string): Promise<[number, number]> {
  const s = await stat(name, { bigint: true }).catch(() => null);
  if (!s || !(s.isCharacterDevice() || s.isBlockDevice())) return [0, 0];
  return devMajorMinor(s.rdev);
}

export interface MknodRet {
  name: string;
  changes: Record<string, unknown>;
  comment: string;
  result: boolean | null;
  [extra: string]: unknown;
}

/** Salt's `mknod_chrdev` / `mknod_blkdev` / `mknod_fifo`. */
export async function mknodNode(
  kind: Kind,
  nameIn: string,
  major: number | string,
  minor: number | string,
  user: Owner,
  group: Owner,
  mode: unknown,
  test: boolean,
): Promise<MknodRet> {
  const name = expand(nameIn);
  const ret: MknodRet = { name, changes: {}, comment: '', result: false };
  const created = { new: `${KINDS[kind].word} ${name} created.` };
  if (test) {
    ret.changes = created;
    ret.result = null;
  } else if (await lexists(name)) {
    ret.comment = `File ${name} exists and cannot be overwritten`;
  } else {
    const argv = ['-m', await createMode(mode), '--', name, kind];
    if (kind !== 'p') argv.push(String(major), String(minor));
    try {
      await run('mknod', argv, { env: { ...process.env, LC_ALL: 'C' } });
    } catch (err) {
      const stderr = String((err as { stderr?: string }).stderr ?? (err as Error).message).trim();
      throw new SALT_ERR_EXEC_COMMAND(stderr.replace(/^mknod: /, ''));
    }
    ret.changes = created;
    ret.result = true;
  }
  const permMode = mode === null || mode === undefined || mode === '' || mode === 0 ? null : mode;
  try {
    await checkPerms(name, null, user, group, permMode, true, test);
  } catch (err) {
    throw new SALT_ERR_EXEC_COMMAND((err as Error).message);
  }
  return ret;
}

/** Salt's `file.mknod`: the folder made (as `file.makedirs`), then the node of type `c`, `b` or `p`. */
export async function mknod(
  ctx: ExecContext,
  name: string,
  ntype: unknown,
  major: number | string,
  minor: number | string,
  user: Owner,
  group: Owner,
  mode: unknown,
): Promise<MknodRet> {
  await ctx.call('file.makedirs', [name, user ?? null, group ?? null]);
  if (ntype !== 'c' && ntype !== 'b' && ntype !== 'p')
    throw new SALT_ERR_INVOCATION(
      `Node type unavailable: '${String(ntype)}'. Available node types are character ('c'), block ('b'), and pipe ('p').`,
    );
  return mknodNode(ntype, name, major, minor, user, group, mode, ctx.opts.test === true);
}

/** A major or minor number (YAML may quote it). */
const num = (z: typeof Zod) => z.union([z.number(), z.string()]);

/** `mknod_chrdev` or `mknod_blkdev`. */
function deviceFunction(kind: 'c' | 'b', example: string) {
  return defineFunction({
    args: (z) =>
      z.object({
        name: str(z),
        major: num(z),
        minor: num(z),
        user: owner(z),
        group: owner(z),
        mode: owner(z).default('0660'),
      }),
    doc: `Create a ${kind === 'c' ? 'character' : 'block'} device.${cli(example)}`,
    run: (ctx, a) =>
      mknodNode(kind, a.name, a.major, a.minor, a.user, a.group, a.mode, ctx.opts.test === true),
  });
}

export const mknodFunctions = {
  get_devmm: defineFunction({
    args: (z) => z.object({ name: str(z) }),
    doc: `Get major/minor info from a device.${cli("salt '*' file.get_devmm /dev/chr")}`,
    run: (_ctx, a) => getDevmm(expand(a.name)),
  }),
  mknod_chrdev: deviceFunction('c', "salt '*' file.mknod_chrdev /dev/chr 180 31"),
  mknod_blkdev: deviceFunction('b', "salt '*' file.mknod_blkdev /dev/blk 8 999"),
  mknod_fifo: defineFunction({
    args: (z) => z.object({ name: str(z), user: owner(z), group: owner(z), mode: owner(z).default('0660') }),
    doc: `Create a FIFO pipe.${cli("salt '*' file.mknod_fifo /dev/fifo")}`,
    run: (ctx, a) => mknodNode('p', a.name, 0, 0, a.user, a.group, a.mode, ctx.opts.test === true),
  }),
  mknod: defineFunction({
    args: (z) =>
      z.object({
        name: str(z),
        ntype: z.unknown(),
        major: num(z).default(0),
        minor: num(z).default(0),
        user: owner(z),
        group: owner(z),
        mode: owner(z).default('0600'),
      }),
    doc: `Create a block device, character device, or fifo pipe; identical to the GNU mknod.${cli("salt '*' file.mknod /dev/chr c 180 31")}`,
    run: (ctx, a) => mknod(ctx, a.name, a.ntype, a.major, a.minor, a.user, a.group, a.mode),
  }),
};
