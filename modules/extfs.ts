/**
 * Salt's `extfs` execution module (`salt/modules/extfs.py`): make, tune and read ext2/3/4 file
 * systems with e2fsprogs (mke2fs, tune2fs, dumpe2fs), through `cmd.run` as Salt does (argv, no
 * shell; the commands' exit status becomes the job's retcode).
 */
import { defineFunction, defineModule, type ExecContext } from '../kernel/index.js';
import { pySplitlines, pyStr } from '../kernel/util.js';

/** mke2fs's options by Salt's keyword names. */
const MKFS_OPTS: Record<string, string> = {
  block_size: 'b',
  check: 'c',
  direct: 'D',
  ext_opts: 'E',
  fragment_size: 'f',
  force: 'F',
  blocks_per_group: 'g',
  number_of_groups: 'G',
  bytes_per_inode: 'i',
  inode_size: 'I',
  journal: 'j',
  journal_opts: 'J',
  blocks_file: 'l',
  label: 'L',
  reserved: 'm',
  last_dir: 'M',
  test: 'n',
  number_of_inodes: 'N',
  creator_os: 'o',
  opts: 'O',
  revision: 'r',
  super: 'S',
  usage_type: 'T',
  uuid: 'U',
};

/** tune2fs's options by Salt's keyword names. */
const TUNE_OPTS: Record<string, string> = {
  max: 'c',
  count: 'C',
  error: 'e',
  extended_opts: 'E',
  force: 'f',
  group: 'g',
  interval: 'i',
  journal: 'j',
  journal_opts: 'J',
  label: 'L',
  last_dir: 'M',
  opts: 'o',
  feature: 'O',
  mmp_check: 'p',
  reserved: 'r',
  quota_opts: 'Q',
  time: 'T',
  user: 'u',
  uuid: 'U',
};

/** The command line's options from the keywords Salt maps (the text "True" alone: a bare flag). */
function options(map: Record<string, string>, kwargs: Readonly<Record<string, unknown>>): string {
  let out = '';
  for (const [key, value] of Object.entries(kwargs)) {
    const opt = map[key];
    if (opt === undefined) continue;
    out += value === 'True' ? `-${opt} ` : `-${opt} ${pyStr(value)} `;
  }
  return out;
}

const lines = async (ctx: ExecContext, cmd: string): Promise<string[]> =>
  pySplitlines(pyStr(await ctx.call('cmd.run', [cmd], { python_shell: false })));

/** mke2fs's progress lines, left out of mkfs's answer. */
const PROGRESS = [
  'mke2fs',
  'Discarding device blocks',
  'Allocating group tables',
  'Writing inode tables',
  'Creating journal',
  'Writing superblocks',
];

interface BlockGroup {
  group: string;
  range: string;
  extra: string[];
  'free blocks'?: string[];
  'free inodes'?: string[];
}

/** Salt's parse of `dumpe2fs`: the superblock's fields, then each block group. */
async function dump(ctx: ExecContext, device: string, args: unknown) {
  const cmd = `dumpe2fs ${device}${args ? ` -${pyStr(args)}` : ''}`;
  const ret: { attributes: Record<string, string | string[]>; blocks: Record<string, BlockGroup> } = {
    attributes: {},
    blocks: {},
  };
  let inBlocks = false;
  let group: BlockGroup | undefined;
  for (let line of await lines(ctx, cmd)) {
    if (!line || line.startsWith('dumpe2fs')) continue;
    if (!inBlocks) {
      line = line.replaceAll('\t', ' ');
      const comps = line.split(': ');
      if (line.startsWith('Filesystem features'))
        ret.attributes[comps[0] as string] = (comps[1] ?? '').split(/\s+/).filter(Boolean);
      else if (line.startsWith('Group') && !line.startsWith('Group descriptor size')) inBlocks = true;
      else if (comps.length >= 2) ret.attributes[comps[0] as string] = (comps[1] as string).trim();
    }
    if (!inBlocks) continue;
    if (line.startsWith('Group')) {
      const comps = line
        .replace(/[:()[\]]/g, '')
        .split(/\s+/)
        .filter(Boolean);
      const blkgrp = comps[1] ?? '';
      group = { group: blkgrp, range: comps[3] ?? '', extra: [] };
      ret.blocks[`Group ${blkgrp}`] = group;
    } else if (!group) continue;
    else if (line.includes('Free blocks:')) group['free blocks'] = (line.split(': ')[1] ?? '').split(', ');
    else if (line.includes('Free inodes:')) group['free inodes'] = (line.split(': ')[1] ?? '').split(', ');
    else group.extra.push(line.trim());
  }
  return ret;
}

const cli = (example: string) => `\n\nCLI Example:\n\n    salt '*' extfs.${example}`;

export default defineModule({
  name: 'extfs',
  doc: 'Make, tune and read ext2/ext3/ext4 file systems (e2fsprogs: mke2fs, tune2fs, dumpe2fs).',
  virtual: () =>
    process.platform !== 'win32' || {
      ok: false,
      reason: 'The extfs execution module cannot be loaded: only available on non-Windows systems.',
    },
  functions: {
    mkfs: defineFunction({
      args: (z) => z.object({ device: z.string(), fs_type: z.string() }),
      varkw: true,
      doc: `Create a file system on device (mke2fs -F -t fs_type); mke2fs's output lines, its progress lines left out. Keywords: ${Object.keys(MKFS_OPTS).join(', ')} (a value of the text "True" gives the bare flag).${cli('mkfs /dev/sda1 fs_type=ext4 opts=acl,noexec')}`,
      run: async (ctx, a, extra) => {
        const cmd = `mke2fs -F -t ${a.fs_type} ${options(MKFS_OPTS, extra.kwargs)}${a.device}`;
        return (await lines(ctx, cmd)).filter((l) => l !== '' && !PROGRESS.some((p) => l.startsWith(p)));
      },
    }),
    tune: defineFunction({
      args: (z) => z.object({ device: z.string() }),
      varkw: true,
      doc: `Set options of the file system on device (tune2fs); tune2fs's output lines. Keywords: ${Object.keys(TUNE_OPTS).join(', ')} (a value of the text "True" gives the bare flag).${cli("tune /dev/sda1 force=True label=wildstallyns opts='acl,noexec'")}`,
      run: (ctx, a, extra) => lines(ctx, `tune2fs ${options(TUNE_OPTS, extra.kwargs)}${a.device}`),
    }),
    attributes: defineFunction({
      args: (z) => z.object({ device: z.string(), args: z.unknown().optional() }),
      doc: `The superblock's fields of the file system on device, from dumpe2fs.${cli('attributes /dev/sda1')}`,
      run: async (ctx, a) => (await dump(ctx, a.device, a.args)).attributes,
    }),
    blocks: defineFunction({
      args: (z) => z.object({ device: z.string(), args: z.unknown().optional() }),
      doc: `The block groups of the file system on device, from dumpe2fs: {"Group N": {group, range, extra, free blocks, free inodes}}.${cli('blocks /dev/sda1')}`,
      run: async (ctx, a) => (await dump(ctx, a.device, a.args)).blocks,
    }),
    dump: defineFunction({
      args: (z) => z.object({ device: z.string(), args: z.unknown().optional() }),
      doc: `Everything dumpe2fs says of the file system on device: {attributes, blocks}; args adds dumpe2fs options (without the dash).${cli('dump /dev/sda1')}`,
      run: (ctx, a) => dump(ctx, a.device, a.args),
    }),
  },
});
