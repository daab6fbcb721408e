/**
 * Salt's `scsi` execution module (`salt/modules/scsi.py`): the SCSI devices `lsscsi` lists,
 * with their attributes, and a host's rescan through its sysfs `scan` file.
 */
import { statSync } from 'node:fs';
import { defineFunction, defineModule, RetcodeResult } from '../kernel/index.js';
import { pySplitlines, pyStr, pyTruthy } from '../kernel/util.js';
import { parseLsscsi } from './_scsi-parse.js';
import { which } from './_which.js';

const isDir = (p: string) => {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
};

interface RunAll {
  retcode?: number;
  stdout?: string;
  stderr?: string;
}

export default defineModule({
  name: 'scsi',
  doc: 'SCSI administration module',
  functions: {
    ls: defineFunction({
      pyName: 'ls_',
      args: (z) => z.object({ get_size: z.unknown().default(true).transform(pyTruthy) }),
      doc: `List SCSI devices, with details

get_size: also read each device's size (lsscsi -s); False for old lsscsi without -s.

CLI Examples:

    salt '*' scsi.ls
    salt '*' scsi.ls get_size=False`,
      run: async (ctx, a) => {
        if (!which('lsscsi')) return new RetcodeResult('scsi.ls not available - lsscsi command not found', 1);
        const res = (await ctx.call('cmd.run_all', [a.get_size ? 'lsscsi -dLsv' : 'lsscsi -dLv'])) as RunAll;
        const rc = res.retcode ?? -1;
        if (rc !== 0) {
          const error = (res.stderr ?? '').split('\n')[0]!;
          if (error === "lsscsi: invalid option -- 's'")
            return new RetcodeResult(`${error} - try get_size=False`, rc);
          return new RetcodeResult(error, rc);
        }
        return parseLsscsi(res.stdout ?? '', a.get_size);
      },
    }),
    rescan_all: defineFunction({
      args: (z) => z.object({ host: z.unknown().transform(pyStr) }),
      doc: `Rescan every channel, target and LUN of a SCSI host

CLI Example:

    salt '*' scsi.rescan_all 0`,
      run: async (ctx, a) => {
        const dir = `/sys/class/scsi_host/host${a.host}`;
        if (!isDir(dir)) return `Host ${a.host} does not exist`;
        const out = await ctx.call('cmd.run', [`echo "- - -" > ${dir}/scan`], { python_shell: true });
        return pySplitlines(String(out));
      },
    }),
  },
});
