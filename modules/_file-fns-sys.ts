/**
 * System-facing functions of Salt's `file` module, merged into `modules/file.ts`: `statvfs`
 * (the `stat -f` program and the mount's flags from /proc/self/mountinfo), `open_files` (from
 * /proc), the SELinux ones (`get_selinux_context`, `set_selinux_context`, `restorecon`: the
 * `stat`, `chcon` and `restorecon` programs, so a host without SELinux gets Salt's answers)
 * and `list_backups_dir`. Returns and errors are Salt 3006's.
 */
import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import {
  defineFunction,
  type ExecContext,
  SALT_ERR_EXEC_COMMAND,
  SALT_ERR_INVOCATION,
} from '../kernel/index.js';
import { pyFlag } from './_coerce.js';
import { cli, expand, str } from './_file-args.js';
import { listBackupsDir } from './_file-backups-dir.js';
import { runProgram } from './_status-proc.js';

/** The `ST_*` bit of each mount option statvfs reports in `f_flag`. */
const MOUNT_FLAGS: Readonly<Record<string, number>> = {
  ro: 1,
  nosuid: 2,
  nodev: 4,
  noexec: 8,
  sync: 16,
  mand: 64,
  noatime: 1024,
  nodiratime: 2048,
  relatime: 4096,
  nosymfollow: 8192,
};

/** Octal escapes (`\040`) of /proc/self/mountinfo undone. */
const unoctal = (s: string) =>
  s.replace(/\\([0-7]{3})/g, (_m, o: string) => String.fromCharCode(Number.parseInt(o, 8)));

/** The `f_flag` of the mount holding `path`: its mount and super-block options as `ST_*` bits. */
async function mountFlags(path: string): Promise<number> {
  const real = await realpath(path);
  const text = await readFile('/proc/self/mountinfo', 'utf8').catch(() => '');
  let best: { len: number; opts: string[] } | undefined;
  for (const line of text.split('\n')) {
    const [left, right] = line.split(' - ');
    const f = left?.split(' ') ?? [];
    if (f.length < 6 || right === undefined) continue;
    const point = unoctal(f[4]!);
    const inside = point === '/' || real === point || real.startsWith(`${point}/`);
    if (inside && (!best || point.length >= best.len))
      best = { len: point.length, opts: [...f[5]!.split(','), ...(right.split(' ')[2] ?? '').split(',')] };
  }
  let flag = 0;
  for (const o of new Set(best?.opts ?? [])) flag |= MOUNT_FLAGS[o] ?? 0;
  return flag;
}

/** Salt's `file.statvfs`. */
async function statvfs(path: string): Promise<Record<string, number>> {
  if (!path.startsWith('/')) throw new SALT_ERR_INVOCATION('File path must be absolute.');
  const r = await runProgram(['stat', '-f', '-c', '%s %S %b %f %a %c %d %l', path]);
  const n = r.stdout.trim().split(' ').map(Number);
  if (r.retcode !== 0 || n.length !== 8 || n.some((x) => !Number.isFinite(x)))
    throw new SALT_ERR_EXEC_COMMAND(`Could not statvfs '${path}'`);
  const [bsize, frsize, blocks, bfree, bavail, files, ffree, namemax] = n as number[];
  return {
    f_bavail: bavail!,
    f_bfree: bfree!,
    f_blocks: blocks!,
    f_bsize: bsize!,
    f_favail: ffree!,
    f_ffree: ffree!,
    f_files: files!,
    f_flag: await mountFlags(path).catch(() => 0),
    f_frsize: frsize!,
    f_namemax: namemax!,
  };
}

const entries = (dir: string) => readdir(dir).catch(() => undefined);

/** Salt's `file.open_files`: each open file and the pids holding it, or each pid and its files. */
async function openFiles(byPid: boolean): Promise<Record<number, unknown>> {
  const pids = new Map<number, string[]>();
  for (const p of (await entries('/proc/')) ?? []) if (/^\d+$/.test(p)) pids.set(Number(p), []);
  const files = new Map<string, number[]>();
  for (const pid of pids.keys()) {
    const base = `/proc/${pid}`;
    const tids = await entries(`${base}/task`);
    if (!tids) continue;
    const fds = new Set(((await entries(`${base}/fd`)) ?? []).map((f) => `${base}/fd/${f}`));
    for (const tid of tids) {
      const exe = await realpath(`${base}/task/${tid}/exe`).catch(() => undefined);
      if (exe === undefined) continue;
      fds.add(exe);
      for (const f of (await entries(`${base}/task/${tid}/fd`)) ?? []) fds.add(`${base}/task/${tid}/fd/${f}`);
    }
    const mine = new Set<string>();
    for (const fd of [...fds].sort()) {
      const name = await realpath(fd).catch(() => undefined);
      if (name === undefined || !(await stat(name).catch(() => undefined))) continue;
      const holders = files.get(name) ?? [];
      if (!holders.includes(pid)) holders.push(pid);
      files.set(
        name,
        holders.sort((a, b) => a - b),
      );
      mine.add(name);
    }
    pids.set(pid, [...mine].sort());
  }
  return Object.fromEntries(byPid ? pids : files);
}

/** Salt's `file.get_selinux_context`: `stat -c %C`'s answer, or that there is none. */
async function selinuxContext(ctx: ExecContext, path: string): Promise<string> {
  const r = (await ctx.call('cmd.run_all', [['stat', '-c', '%C', path]], { python_shell: false })) as {
    retcode: number;
    stdout: string;
  };
  return r.retcode === 0 ? r.stdout : `No selinux context information is available for ${path}`;
}

const retcode = async (ctx: ExecContext, cmd: string[]) =>
  Number(await ctx.call('cmd.retcode', [cmd], { python_shell: false }));

export const sysFunctions = {
  statvfs: defineFunction({
    args: (z) => z.object({ path: str(z) }),
    doc: `Perform a statvfs call against the filesystem that the file resides on.${cli("salt '*' file.statvfs /path/to/file")}`,
    run: (_ctx, a) => statvfs(expand(a.path)),
  }),
  open_files: defineFunction({
    args: (z) => z.object({ by_pid: pyFlag(z, false) }),
    doc: `Return a list of all physical open files on the system (by_pid=True: each pid's).${cli("salt '*' file.open_files by_pid=True")}`,
    run: (_ctx, a) => openFiles(a.by_pid),
  }),
  get_selinux_context: defineFunction({
    args: (z) => z.object({ path: str(z) }),
    doc: `Get an SELinux context from a given path.${cli("salt '*' file.get_selinux_context /etc/hosts")}`,
    run: (ctx, a) => selinuxContext(ctx, a.path),
  }),
  set_selinux_context: defineFunction({
    args: (z) =>
      z.object({
        path: str(z),
        user: z.string().nullish(),
        role: z.string().nullish(),
        type: z.string().nullish(),
        range: z.string().nullish(),
        persist: pyFlag(z, false),
      }),
    doc: `Set a specific SELinux label on a given path; the new context, or False.${cli("salt '*' file.set_selinux_context /etc/yum.repos.d/epel.repo system_u object_r system_conf_t s0")}`,
    run: async (ctx, a) => {
      if (!a.user && !a.role && !a.type && !a.range) return false;
      if (a.persist) {
        const got = (await ctx.call('selinux.fcontext_add_policy', [a.path], {
          sel_type: a.type,
          sel_user: a.user,
          sel_level: a.range,
        })) as { retcode?: number } | null;
        if (got?.retcode !== 0)
          throw new SALT_ERR_EXEC_COMMAND(`Problem setting fcontext: ${JSON.stringify(got)}`);
      }
      const cmd = ['chcon'];
      for (const [flag, v] of [
        ['-u', a.user],
        ['-r', a.role],
        ['-t', a.type],
        ['-l', a.range],
      ] as const)
        if (v) cmd.push(flag, v);
      cmd.push(a.path);
      return (await retcode(ctx, cmd)) === 0 ? selinuxContext(ctx, a.path) : false;
    },
  }),
  restorecon: defineFunction({
    args: (z) => z.object({ path: str(z), recursive: pyFlag(z, false) }),
    doc: `Reset the SELinux context on a given path.${cli("salt '*' file.restorecon /home/user/.ssh/authorized_keys")}`,
    run: async (ctx, a) => (await retcode(ctx, ['restorecon', a.recursive ? '-FR' : '-F', a.path])) === 0,
  }),
  list_backups_dir: defineFunction({
    args: (z) => z.object({ path: str(z), limit: z.unknown().optional() }),
    doc: `Lists the previous versions of a directory backed up using Salt's file state backup system.${cli("salt '*' file.list_backups_dir /foo/bar/baz/")}`,
    run: (ctx, a) => {
      let limit: number | undefined;
      if (a.limit !== undefined && a.limit !== null) {
        const n =
          typeof a.limit === 'number' ? Math.trunc(a.limit) : Number.parseInt(String(a.limit).trim(), 10);
        if (Number.isNaN(n) || (typeof a.limit === 'string' && !/^\s*[-+]?\d+\s*$/.test(a.limit)))
          ctx.log.error("file.list_backups_dir: 'limit' value must be numeric");
        else limit = n;
      }
      return listBackupsDir(ctx, expand(a.path), limit);
    },
  }),
};
