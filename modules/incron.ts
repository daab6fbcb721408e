/**
 * Salt's `incron` execution module (`salt/modules/incron.py`): a user's incrontab through the
 * `incrontab` program, or the system table /etc/incron.d/salt for the user "system", listed
 * and edited one job (path, mask, command) at a time.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineFunction, defineModule, type ExecContext, SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import { pyStr } from '../kernel/util.js';
import { badMask, type IncronTab, parseIncronTab, placeJob, renderIncronTab } from './_incron-tab.js';

const SYSTEM_DIR = '/etc/incron.d/';

interface RunAll {
  retcode: number;
  stdout: string;
  stderr: string;
}

/** `incrontab <path>` as `user`: loads a file as the user's table. */
const loadTab = (ctx: ExecContext, user: unknown, path: string) =>
  ctx.call('cmd.run_all', [`incrontab ${path}`], { runas: user, python_shell: false }) as Promise<RunAll>;

function rawSystem(): string {
  try {
    return readFileSync(join(SYSTEM_DIR, 'salt'), 'utf8');
  } catch {
    return '';
  }
}

const rawUser = async (ctx: ExecContext, user: unknown): Promise<string> =>
  String(
    await ctx.call('cmd.run_stdout', [`incrontab -l ${pyStr(user)}`], {
      rstrip: false,
      runas: user,
      python_shell: false,
    }),
  );

const listTab = async (ctx: ExecContext, user: unknown): Promise<IncronTab> =>
  parseIncronTab(user === 'system' ? rawSystem() : await rawUser(ctx, user));

/** Salt's `_write_incron_lines`: the system file, or a temp file loaded with `incrontab`. */
async function writeLines(
  ctx: ExecContext,
  user: unknown,
  lines: string[],
): Promise<{ retcode: number; stderr?: string }> {
  if (user === 'system') {
    if (!existsSync(SYSTEM_DIR))
      throw new SALT_ERR_EXEC_COMMAND(`salt cannot be written. ${SYSTEM_DIR} does not exist`);
    writeFileSync(join(SYSTEM_DIR, 'salt'), lines.join(''));
    return { retcode: 0 };
  }
  const dir = mkdtempSync(join(tmpdir(), '__salt.tmp.'));
  const path = join(dir, 'incrontab');
  try {
    writeFileSync(path, lines.join(''));
    if (user !== 'root')
      await ctx.call('cmd.run', [`chown ${pyStr(user)} ${dir} ${path}`], { python_shell: false });
    return await loadTab(ctx, user, path);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const jobArgs = (z: typeof import('zod').z) =>
  z.object({ user: z.unknown(), path: z.unknown(), mask: z.unknown(), cmd: z.unknown() });

async function setJob(ctx: ExecContext, a: { user: unknown; path: unknown; mask: unknown; cmd: unknown }) {
  const mask = pyStr(a.mask).toUpperCase();
  const bad = badMask(mask);
  if (bad) return bad;
  const tab = await listTab(ctx, a.user);
  const placed = placeJob(tab, { path: pyStr(a.path), mask, cmd: pyStr(a.cmd) });
  if (placed === 'present') return 'present';
  const res = await writeLines(ctx, a.user, renderIncronTab({ ...tab, crons: placed.crons }));
  if (res.retcode) return res.stderr;
  return placed.updated ? 'updated' : 'new';
}

async function rmJob(ctx: ExecContext, a: { user: unknown; path: unknown; mask: unknown; cmd: unknown }) {
  const mask = pyStr(a.mask).toUpperCase();
  const bad = badMask(mask);
  if (bad) return bad;
  const tab = await listTab(ctx, a.user);
  const at = tab.crons.findIndex((c) => c.path === a.path && c.cmd === a.cmd && c.mask === mask);
  if (at >= 0) tab.crons.splice(at, 1);
  const res = await writeLines(ctx, a.user, renderIncronTab(tab));
  if (res.retcode) return res.stderr;
  return at >= 0 ? 'removed' : 'absent';
}

const listTabFn = defineFunction({
  args: (z) => z.object({ user: z.unknown() }),
  doc: `Return the contents of the specified user's incrontab ("system": /etc/incron.d/salt).

CLI Example:

    salt '*' incron.list_tab root`,
  run: (ctx, a) => listTab(ctx, a.user),
});

const rmJobFn = defineFunction({
  args: jobArgs,
  doc: `Remove a incron job for a specified user: "removed", "absent", or the error of incrontab.

CLI Example:

    salt '*' incron.rm_job root /path IN_MODIFY 'echo modified'`,
  run: (ctx, a) => rmJob(ctx, a),
});

export default defineModule({
  name: 'incron',
  doc: 'Work with incron: the incrontab of a user, or the system table /etc/incron.d/salt.',
  functions: {
    write_incron_file: defineFunction({
      args: (z) => z.object({ user: z.unknown(), path: z.unknown() }),
      doc: `Writes the contents of a file to a user's incrontab.

CLI Example:

    salt '*' incron.write_incron_file root /tmp/new_incron`,
      run: async (ctx, a) => (await loadTab(ctx, a.user, pyStr(a.path))).retcode === 0,
    }),
    write_incron_file_verbose: defineFunction({
      args: (z) => z.object({ user: z.unknown(), path: z.unknown() }),
      doc: `Writes the contents of a file to a user's incrontab and return error message on error.

CLI Example:

    salt '*' incron.write_incron_file_verbose root /tmp/new_incron`,
      run: (ctx, a) => loadTab(ctx, a.user, pyStr(a.path)),
    }),
    raw_system_incron: defineFunction({
      doc: `Return the contents of the system wide incrontab.

CLI Example:

    salt '*' incron.raw_system_incron`,
      run: () => rawSystem(),
    }),
    raw_incron: defineFunction({
      args: (z) => z.object({ user: z.unknown() }),
      doc: `Return the contents of the user's incrontab.

CLI Example:

    salt '*' incron.raw_incron root`,
      run: (ctx, a) => rawUser(ctx, a.user),
    }),
    list_tab: listTabFn,
    ls: listTabFn,
    set_job: defineFunction({
      args: jobArgs,
      doc: `Sets an incron job up for a specified user: "new", "updated", "present", or the error of incrontab.

CLI Example:

    salt '*' incron.set_job root '/root' 'IN_MODIFY' 'echo "$$ $@ $# $% $&"'`,
      run: (ctx, a) => setJob(ctx, a),
    }),
    rm_job: rmJobFn,
    rm: rmJobFn,
  },
});
