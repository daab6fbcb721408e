/**
 * Salt's `udev` execution module (`salt/modules/udev.py`): what `udevadm info` knows of a
 * device (by its /dev name, or by its /sys path when the argument contains "sys") and the
 * whole udev database. `udevadm info` reads /run/udev and /sys, so no udev daemon is needed.
 */
import { defineFunction, defineModule, type ExecContext, SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import { runAll } from './_fsutils.js';
import { pythonError } from './_py-exception.js';
import { parseUdevadmInfo, type UdevRecord } from './_udevadm-parse.js';
import { which } from './_which.js';

const cli = (fn: string, arg: string): string =>
  `\n\nCLI Example:\n\n    salt '*' udev.${fn} ${arg}\n    salt '*' udev.${fn} /sys/class/net/eth0`;

/** `udevadm info` of one device, its first record. */
async function info(ctx: ExecContext, dev: unknown): Promise<UdevRecord> {
  const d = String(dev);
  const qtype = d.includes('sys') ? 'path' : 'name';
  const out = await runAll(ctx, `udevadm info --export --query=all --${qtype}=${d}`);
  if (out.retcode !== 0) throw new SALT_ERR_EXEC_COMMAND(out.stderr);
  const first = parseUdevadmInfo(out.stdout)[0];
  if (!first) throw pythonError('IndexError', 'list index out of range');
  return first;
}

/** One letter of the device's record, None when udev has none. */
const section = (letter: string) =>
  defineFunction({
    args: (z) => z.object({ dev: z.unknown() }),
    run: async (ctx, a) => (await info(ctx, a.dev))[letter] ?? null,
  });

export default defineModule({
  name: 'udev',
  doc: 'Manage and query udev info.',
  virtual: () => (which('udevadm') ? true : { ok: false, reason: 'udevadm is not installed' }),
  functions: {
    info: defineFunction({
      args: (z) => z.object({ dev: z.unknown() }),
      doc: `Extract all info delivered by udevadm.${cli('info', '/dev/sda')}`,
      run: (ctx, a) => info(ctx, a.dev),
    }),
    env: {
      ...section('E'),
      doc: `Return all environment variables udev has for dev.${cli('env', '/dev/sda')}`,
    },
    name: {
      ...section('N'),
      doc: `Return the device name according to udev for dev.${cli('dev', '/dev/sda')}`,
    },
    path: {
      ...section('P'),
      doc: `Return the physical device path according to udev for dev.${cli('path', '/dev/sda')}`,
    },
    links: { ...section('S'), doc: `Return all udev-created device symlinks.${cli('links', '/dev/sda')}` },
    exportdb: defineFunction({
      args: (z) => z.object({}),
      doc: "Return all the udev database.\n\nCLI Example:\n\n    salt '*' udev.exportdb",
      run: async (ctx) => {
        const out = await runAll(ctx, 'udevadm info --export-db');
        if (out.retcode) throw new SALT_ERR_EXEC_COMMAND(out.stderr);
        return parseUdevadmInfo(out.stdout);
      },
    }),
  },
});
