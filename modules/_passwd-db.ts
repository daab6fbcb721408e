/**
 * Reads the local account databases, `/etc/passwd`, `/etc/group` and `/etc/shadow` (or the
 * ones under `root`), the way Salt's `useradd`/`groupadd`/`linux_shadow` modules read them
 * (`pwd`, `grp`, `spwd` and their `_getpwnam`/`_getgrnam`/`_getspnam` fallbacks), and runs the
 * account tools (useradd, usermod, gpasswd...) as argv through `cmd.run_all`, never a shell.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ExecContext } from '../kernel/index.js';

export interface PasswdEntry {
  name: string;
  passwd: string;
  uid: number;
  gid: number;
  gecos: string;
  home: string;
  shell: string;
}

export interface GroupEntry {
  name: string;
  passwd: string;
  gid: number;
  members: string[];
}

export interface ShadowEntry {
  name: string;
  passwd: string;
  lstchg: number;
  min: number;
  max: number;
  warn: number;
  inact: number;
  expire: number;
}

async function lines(root: string | null | undefined, file: string): Promise<string[][]> {
  const text = await readFile(path.join(root || '/', 'etc', file), 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.startsWith('#'))
    .map((l) => l.trim().split(':'));
}

/** Every entry of `<root>/etc/passwd`. */
export async function passwdAll(root?: string | null): Promise<PasswdEntry[]> {
  return (await lines(root, 'passwd'))
    .filter((c) => c.length >= 7)
    .map((c) => ({
      name: c[0] as string,
      passwd: c[1] as string,
      uid: Number(c[2]),
      gid: Number(c[3]),
      gecos: c[4] as string,
      home: c[5] as string,
      shell: c[6] as string,
    }));
}

/** Every entry of `<root>/etc/group` (lines with fewer than 4 fields are skipped, as Salt does). */
export async function groupAll(root?: string | null): Promise<GroupEntry[]> {
  return (await lines(root, 'group'))
    .filter((c) => c.length >= 4)
    .map((c) => ({
      name: c[0] as string,
      passwd: c[1] as string,
      gid: Number(c[2]),
      members: c[3] ? (c[3] as string).split(',') : [],
    }));
}

/** Every entry of `<root>/etc/shadow`; empty numeric fields are -1 (Python's `spwd`). */
export async function shadowAll(root?: string | null): Promise<ShadowEntry[]> {
  const num = (s: string | undefined) => (s ? Number(s) : -1);
  return (await lines(root, 'shadow')).map((c) => ({
    name: c[0] as string,
    passwd: c[1] ?? '',
    lstchg: num(c[2]),
    min: num(c[3]),
    max: num(c[4]),
    warn: num(c[5]),
    inact: num(c[6]),
    expire: num(c[7]),
  }));
}

export async function passwdByName(name: string, root?: string | null): Promise<PasswdEntry | undefined> {
  return (await passwdAll(root)).find((e) => e.name === name);
}

export async function groupByName(name: string, root?: string | null): Promise<GroupEntry | undefined> {
  return (await groupAll(root)).find((e) => e.name === name);
}

/**
 * Salt's `file.group_to_gid`: a gid given as a number (or digits) is itself; a name is its gid,
 * or '' when there is no such group.
 */
export async function groupToGid(group: unknown, root?: string | null): Promise<number | ''> {
  if (typeof group === 'number') return group;
  const s = String(group);
  if (/^\d+$/.test(s)) return Number(s);
  const g = await groupByName(s, root);
  return g ? g.gid : '';
}

/** Salt's `file.gid_to_group`: the name of gid `gid` (a name is checked and kept), else the gid itself. */
export async function gidToGroup(gid: unknown, root?: string | null): Promise<string | number> {
  const all = await groupAll(root);
  if (typeof gid === 'number' || /^\d+$/.test(String(gid))) {
    const n = Number(gid);
    return all.find((g) => g.gid === n)?.name ?? n;
  }
  return all.find((g) => g.name === String(gid))?.name ?? '';
}

/** The sorted names of the groups `user` belongs to, its primary group included (Salt's `get_group_list`). */
export async function groupListOf(user: string, root?: string | null): Promise<string[]> {
  const pw = await passwdByName(user, root);
  if (!pw) return [];
  const names = new Set<string>();
  for (const g of await groupAll(root)) if (g.gid === pw.gid || g.members.includes(user)) names.add(g.name);
  return [...names].sort();
}

export interface ToolResult {
  retcode: number;
  stdout: string;
  stderr: string;
}

/** Runs an account tool as argv (no shell) through `cmd.run_all`. */
export async function runTool(
  ctx: ExecContext,
  argv: readonly string[],
  stdin?: string,
): Promise<ToolResult> {
  const kwargs: Record<string, unknown> = { python_shell: false, ignore_retcode: true };
  if (stdin !== undefined) kwargs.stdin = stdin;
  const out = (await ctx.call('cmd.run_all', [argv], kwargs)) as Partial<ToolResult>;
  return { retcode: out.retcode ?? 1, stdout: out.stdout ?? '', stderr: out.stderr ?? '' };
}
