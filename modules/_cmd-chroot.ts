/**
 * Salt's `cmd.run_chroot` (`salt/modules/cmdmod.py`): `cmd.run_all` of the command inside a
 * chroot at `root`, with devtmpfs, proc and sysfs (and any `binds`) mounted there through
 * `mount.mount` for the run, the processes left in the chroot killed, and the mounts undone.
 */
import { existsSync } from 'node:fs';
import { readdir, readlink, realpath } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { ExecContext } from '../kernel/index.js';
import { RetcodeResult } from '../kernel/jobs/retcode.js';
import { defineFunction } from '../kernel/loader/define.js';
import { DEFAULT_SHELL } from './_cmd-args.js';
import { shlexQuote } from './_shlex.js';

/** The pids whose root directory is `root` (Salt's `_chroot_pids`). */
async function chrootPids(root: string): Promise<number[]> {
  let real: string;
  try {
    real = await realpath(root);
  } catch {
    return [];
  }
  const pids: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if ((await readlink(`/proc/${entry}/root`)) === real) pids.push(Number(entry));
    } catch {
      // gone, or not ours to read
    }
  }
  return pids;
}

async function killChrooted(ctx: ExecContext, root: string): Promise<void> {
  for (let i = 0; i < 6; i++) {
    const pids = await chrootPids(root);
    if (pids.length === 0) return;
    for (const pid of pids) {
      try {
        process.kill(pid, i < 3 ? 'SIGTERM' : 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
  if ((await chrootPids(root)).length > 0)
    ctx.log.error('Processes running in chroot could not be killed, filesystem will remain mounted');
}

const RUN_ALL_KEYS = [
  'cwd',
  'stdin',
  'shell',
  'python_shell',
  'env',
  'clean_env',
  'template',
  'rstrip',
  'umask',
  'output_encoding',
  'output_loglevel',
  'timeout',
  'reset_system_locale',
  'ignore_retcode',
  'saltenv',
  'use_vt',
  'success_retcodes',
  'success_stdout',
  'success_stderr',
  'bg',
] as const;

type ChrootArgs = {
  root: string;
  cmd: unknown;
  runas?: unknown;
  group?: unknown;
  binds?: unknown;
  hide_output?: unknown;
} & Record<string, unknown>;

export async function runChroot(
  ctx: ExecContext,
  a: ChrootArgs,
  kwargs: Record<string, unknown>,
): Promise<unknown> {
  const root = a.root;
  await ctx.call('mount.mount', [join(root, 'dev'), 'devtmpfs'], { fstype: 'devtmpfs' });
  await ctx.call('mount.mount', [join(root, 'proc'), 'proc'], { fstype: 'proc' });
  await ctx.call('mount.mount', [join(root, 'sys'), 'sysfs'], { fstype: 'sysfs' });
  const binds = Array.isArray(a.binds) ? a.binds.map(String) : [];
  const bindTarget = (b: string) => join(root, relative('/', b));
  for (const b of binds) await ctx.call('mount.mount', [bindTarget(b), b], { opts: 'default,bind' });
  const sh = existsSync(join(root, 'bin/bash')) ? '/bin/bash' : '/bin/sh';
  const cmd = Array.isArray(a.cmd) ? a.cmd.map(String).join(' ') : String(a.cmd);
  const userspec = a.runas ? `--userspec ${String(a.runas)}:${a.group ? String(a.group) : ''}` : '';
  const full = `chroot ${userspec} ${root} ${sh} -c ${shlexQuote(cmd)}`;
  const opts: Record<string, unknown> = { pillarenv: kwargs.pillarenv, pillar: kwargs.pillar };
  for (const k of RUN_ALL_KEYS) if (a[k] !== undefined) opts[k] = a[k];
  let ret: unknown;
  try {
    ret = await ctx.call('cmd.run_all', [full], opts);
  } finally {
    await killChrooted(ctx, root);
    for (const b of binds) await ctx.call('mount.umount', [bindTarget(b)]);
    for (const m of ['sys', 'proc', 'dev']) await ctx.call('mount.umount', [join(root, m)]);
  }
  const value = a.hide_output && ret && typeof ret === 'object' ? { ...ret, stdout: '', stderr: '' } : ret;
  // the command's retcode is in the answer; Salt's run_chroot leaves the job's at 0
  return new RetcodeResult(value, 0);
}

export const chrootFunctions = {
  run_chroot: defineFunction({
    args: (z) => {
      const u = () => z.unknown().optional();
      return z.object({
        root: z.string(),
        cmd: z.unknown(),
        cwd: u(),
        stdin: u(),
        runas: u(),
        group: u(),
        shell: z.unknown().default(DEFAULT_SHELL),
        python_shell: z.unknown().default(true),
        binds: u(),
        env: u(),
        clean_env: z.unknown().default(false),
        template: u(),
        rstrip: z.unknown().default(true),
        umask: u(),
        output_encoding: u(),
        output_loglevel: z.unknown().default('quiet'),
        log_callback: u(),
        hide_output: z.unknown().default(false),
        timeout: u(),
        reset_system_locale: z.unknown().default(true),
        ignore_retcode: z.unknown().default(false),
        saltenv: u(),
        use_vt: z.unknown().default(false),
        bg: z.unknown().default(false),
        success_retcodes: u(),
        success_stdout: u(),
        success_stderr: u(),
      });
    },
    varkw: true,
    doc: "Run cmd.run_all inside a chroot at root, with dev, proc and sys (and binds) mounted there for the run.\n\nCLI Example:\n\n    salt '*' cmd.run_chroot /var/lib/lxc/container_name/rootfs 'sh /tmp/bootstrap.sh'",
    run: (ctx, a, extra) => runChroot(ctx, a as ChrootArgs, extra.kwargs),
  }),
};
