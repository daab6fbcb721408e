/**
 * Salt's `xfs` execution module (`salt/modules/xfs.py`): XFS geometry (`xfs_info`), dumps and
 * their inventory (`xfsdump`, `xfsrestore -I`, `xfsinvutil`), space estimates, defragmenting
 * (`xfs_fsr`), the XFS devices `blkid` sees, `mkfs.xfs` and `xfs_admin`. Each command goes
 * through `cmd.run_all` as Salt's does, and a failing one raises its stderr.
 */
import { existsSync } from 'node:fs';
import { defineFunction, defineModule, SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import { pyStr, pyTruthy } from '../kernel/util.js';
import { runAll, runChecked } from './_fsutils.js';
import { which } from './_which.js';
import {
  parseEstimate,
  parseInventory,
  parsePrune,
  parseXfsdump,
  parseXfsInfo,
  xfsBlkid,
  xfsMounts,
} from './_xfs-parse.js';

const cli = (ex: string): string => `\n\nCLI Example:\n\n    ${ex}`;
const str = (z: typeof import('zod').z) => z.unknown().transform(pyStr);
const opt = (z: typeof import('zod').z) => z.unknown().default(null);
const pad = (n: number) => String(n).padStart(2, '0');

/** Salt's default dump label: `XFS dump for "<device>" of YYYY.MM.DD, HH:MM` (local time). */
function dumpLabel(device: string): string {
  const d = new Date();
  const date = `${d.getFullYear()}.${pad(d.getMonth() + 1)}.${pad(d.getDate())}`;
  return `XFS dump for "${device}" of ${date}, ${pad(d.getHours())}:${pad(d.getMinutes())}`.replaceAll(
    "'",
    '"',
  );
}

/** mkfs.xfs's `-b`/`-m`/... option string: used only when it holds `key=value` pairs. */
function sectionOptions(opts: unknown, sw: string): boolean {
  if (!pyTruthy(opts)) return false;
  const wrong = () => new SALT_ERR_EXEC_COMMAND(`Wrong parameters "${pyStr(opts)}" for option "${sw}"`);
  if (typeof opts === 'number' || typeof opts === 'boolean') throw wrong(); // Python: `"=" in 5` fails
  if (typeof opts !== 'string' || !opts.includes('=')) return false;
  if (opts.split(',').some((kw) => kw.split('=').length !== 2)) throw wrong();
  return true;
}

export default defineModule({
  name: 'xfs',
  doc: 'Module for managing XFS file systems.',
  virtual: (ctx) => ctx.grains.kernel === 'Linux' || { ok: false, reason: 'xfs: Linux only' },
  functions: {
    info: defineFunction({
      args: (z) => z.object({ device: str(z) }),
      doc: `Get filesystem geometry information.${cli("salt '*' xfs.info /dev/sda1")}`,
      run: async (ctx, a) => {
        const out = await runAll(ctx, `xfs_info ${a.device}`);
        if (out.stderr) throw new SALT_ERR_EXEC_COMMAND(out.stderr.replaceAll('xfs_info:', '').trim());
        return parseXfsInfo(out.stdout);
      },
    }),
    dump: defineFunction({
      args: (z) =>
        z.object({
          device: str(z),
          destination: str(z),
          level: z.unknown().default(0),
          label: opt(z),
          noerase: opt(z),
        }),
      doc: `Dump filesystem device to the media (file, tape etc). label: the dump's label (else one with the date); level: 0 to 9; noerase: do not pre-erase the media.${cli("salt '*' xfs.dump /dev/sda1 /destination/on/the/client label='Company accountancy' noerase=True")}`,
      run: async (ctx, a) => {
        if (!which('xfsdump'))
          throw new SALT_ERR_EXEC_COMMAND('Utility "xfsdump" has to be installed or missing.');
        const label = pyTruthy(a.label) ? pyStr(a.label) : dumpLabel(a.device);
        const cmd = ['xfsdump', '-F'];
        if (!pyTruthy(a.noerase)) cmd.push('-E');
        cmd.push(`-L '${label}'`, `-l ${pyStr(a.level)}`, `-f ${a.destination}`, a.device);
        return parseXfsdump((await runChecked(ctx, cmd.join(' '))).stdout);
      },
    }),
    inventory: defineFunction({
      doc: `Display XFS dump inventory without restoration.${cli("salt '*' xfs.inventory")}`,
      run: async (ctx) => parseInventory((await runChecked(ctx, 'xfsrestore -I')).stdout),
    }),
    prune_dump: defineFunction({
      args: (z) => z.object({ sessionid: str(z) }),
      doc: `Prunes the dump session identified by the given session id.${cli("salt '*' xfs.prune_dump b74a3586-e52e-4a4a-8775-c3334fa8ea2c")}`,
      run: async (ctx, a) => {
        const data = parsePrune(
          (await runChecked(ctx, `xfsinvutil -s ${a.sessionid} -F`)).stdout,
          a.sessionid,
        );
        if (Object.keys(data).length) return data;
        throw new SALT_ERR_EXEC_COMMAND(`Session UUID "${a.sessionid}" was not found.`);
      },
    }),
    devices: defineFunction({
      doc: `Get known XFS formatted devices on the system.${cli("salt '*' xfs.devices")}`,
      run: async (ctx) => xfsBlkid((await runChecked(ctx, 'blkid -o export')).stdout),
    }),
    estimate: defineFunction({
      args: (z) => z.object({ path: str(z) }),
      doc: `Estimate the space that an XFS filesystem will take: for each directory, the space it would take copied to XFS. Does not cross mount points.${cli("salt '*' xfs.estimate /path/to/file")}`,
      run: async (ctx, a) => {
        if (!existsSync(a.path)) throw new SALT_ERR_EXEC_COMMAND(`Path "${a.path}" was not found.`);
        return parseEstimate((await runChecked(ctx, `xfs_estimate -v ${a.path}`)).stdout);
      },
    }),
    mkfs: defineFunction({
      args: (z) =>
        z.object({
          device: str(z),
          label: opt(z),
          ssize: opt(z),
          noforce: opt(z),
          bso: opt(z),
          gmo: opt(z),
          ino: opt(z),
          lso: opt(z),
          rso: opt(z),
          nmo: opt(z),
          dso: opt(z),
        }),
      doc: `Create a file system on the specified device, by default with force. label, ssize (sector size), noforce; geometry options as key=value,... strings: bso (block), gmo (global metadata), dso (data), ino (inode), lso (log), nmo (naming), rso (realtime).${cli("salt '*' xfs.mkfs /dev/sda1 dso='su=32k,sw=6' lso='logdev=/dev/sda2,size=10000b'")}`,
      run: async (ctx, a) => {
        const cmd = ['mkfs.xfs'];
        if (pyTruthy(a.label)) cmd.push('-L', `'${pyStr(a.label)}'`);
        if (pyTruthy(a.ssize)) cmd.push('-s', pyStr(a.ssize));
        const sections: [string, unknown][] = [
          ['-b', a.bso],
          ['-m', a.gmo],
          ['-n', a.nmo],
          ['-i', a.ino],
          ['-d', a.dso],
          ['-l', a.lso],
          ['-r', a.rso],
        ];
        for (const [sw, opts] of sections) if (sectionOptions(opts, sw)) cmd.push(sw, String(opts));
        if (!pyTruthy(a.noforce)) cmd.push('-f');
        cmd.push(a.device);
        return parseXfsInfo((await runChecked(ctx, cmd.join(' '))).stdout);
      },
    }),
    modify: defineFunction({
      args: (z) => z.object({ device: str(z), label: opt(z), lazy_counting: opt(z), uuid: opt(z) }),
      doc: `Modify parameters of an XFS filesystem: label, lazy_counting (True/False), uuid (True for a new one, False for nil).${cli("salt '*' xfs.modify /dev/sda1 label='My backup' lazy_counting=False")}`,
      run: async (ctx, a) => {
        const none = (v: unknown) => v === null || v === undefined;
        if (!pyTruthy(a.label) && none(a.lazy_counting) && none(a.uuid))
          throw new SALT_ERR_EXEC_COMMAND(`Nothing specified for modification for "${a.device}" device`);
        const cmd = ['xfs_admin'];
        if (pyTruthy(a.label)) cmd.push('-L', `'${pyStr(a.label)}'`);
        if (a.lazy_counting === false) cmd.push('-c', '0');
        else if (pyTruthy(a.lazy_counting)) cmd.push('-c', '1');
        if (a.uuid === false) cmd.push('-U', 'nil');
        else if (pyTruthy(a.uuid)) cmd.push('-U', 'generate');
        cmd.push(a.device);
        await runChecked(ctx, cmd.join(' '));
        return xfsBlkid((await runChecked(ctx, `blkid -o export ${a.device}`)).stdout);
      },
    }),
    defragment: defineFunction({
      args: (z) => z.object({ device: str(z) }),
      doc: `Defragment mounted XFS filesystem. The device must be mounted and writable.${cli("salt '*' xfs.defragment /dev/sda1")}`,
      run: async (ctx, a) => {
        if (a.device === '/') throw new SALT_ERR_EXEC_COMMAND('Root is not a device.');
        if (!xfsMounts()[a.device]) throw new SALT_ERR_EXEC_COMMAND(`Device "${a.device}" is not mounted`);
        return { log: (await runChecked(ctx, `xfs_fsr ${a.device}`)).stdout };
      },
    }),
  },
});
