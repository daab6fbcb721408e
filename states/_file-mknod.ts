/**
 * Salt's `file.mknod` state (`salt/states/file.py` `mknod`): a character device (`c`), block
 * device (`b`) or FIFO (`p`) at `name`, made with its folders when missing; one that exists
 * with the wanted major/minor has its owner and mode checked, while a regular file or a device
 * with other numbers in the way is refused, never replaced.
 */
import { checkPerms } from '../modules/_file-perms.js';
import { isFile } from '../modules/_file-stat.js';
import { defineState } from '../plugins/states/index.js';
import { expandUser, type Ret } from './_file-common.js';

const KINDS = {
  c: { word: 'Character device', what: 'a character device', is: 'file.is_chrdev' },
  b: { word: 'Block device', what: 'a block device', is: 'file.is_blkdev' },
  p: { word: 'Fifo pipe', what: 'a fifo pipe', is: 'file.is_fifo' },
} as const;

export const mknod = defineState({
  args: (z) =>
    z.object({
      name: z.string(),
      ntype: z.unknown(),
      major: z.union([z.number(), z.string()]).default(0),
      minor: z.union([z.number(), z.string()]).default(0),
      user: z.union([z.string(), z.number()]).nullish(),
      group: z.union([z.string(), z.number()]).nullish(),
      mode: z.union([z.string(), z.number()]).nullish().default('0600'),
    }),
  doc: "Create a special file similar to the 'nix mknod command: a fifo pipe (p), character device (c) or block device (b).",
  run: async (ctx, a) => {
    const name = expandUser(a.name);
    let ret: Ret = { name, changes: {}, comment: '', result: false };
    if (!name) return { ...ret, comment: 'Must provide name to file.mknod' };
    const ntype = a.ntype;
    if (ntype !== 'c' && ntype !== 'b' && ntype !== 'p') {
      ret.comment = `Node type unavailable: '${String(ntype)}'. Available node types are character ('c'), block ('b'), and pipe ('p')`;
      return ret;
    }
    const kind = KINDS[ntype];
    const test = ctx.test;
    if (await isFile(name)) {
      ret.comment = `File ${name} exists and is not ${kind.what}. Refusing to continue`;
    } else if (!(await ctx.call(kind.is, [name]))) {
      if (test) {
        ret.comment = `${kind.word} ${name} is set to be created`;
        ret.result = null;
      } else {
        ret = (await ctx.call('file.mknod', [
          name,
          ntype,
          a.major,
          a.minor,
          a.user ?? null,
          a.group ?? null,
          a.mode,
        ])) as Ret;
      }
    } else {
      const [devmaj, devmin] = (await ctx.call('file.get_devmm', [name])) as [number, number];
      if (ntype !== 'p' && (a.major !== devmaj || a.minor !== devmin)) {
        ret.comment = `${kind.word} ${name} exists and has a different major/minor ${devmaj}/${devmin}. Refusing to continue`;
      } else {
        ret = (await checkPerms(name, null, a.user, a.group, a.mode, true, test))[0];
        if (!Object.keys(ret.changes).length) ret.comment = `${kind.word} ${name} is in the correct state`;
      }
    }
    return ret;
  },
});
