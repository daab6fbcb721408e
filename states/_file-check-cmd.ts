/**
 * `file.managed`'s own `check_cmd` (Salt's `managed` with `check_cmd`, `tmp_dir`, `tmp_ext`,
 * and `mod_run_check_cmd`): the new content is first written to a temporary copy of the file,
 * `<check_cmd> <tmpfile>` runs on it, and the file is replaced only when the command exits 0
 * (sudoers-formula's `visudo -c -f`, openssh-formula's `sshd -t -f`). With `test=True` the
 * state predicts changes without running the command, as Salt does.
 */
import { copyFile, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ManageOptions, manageFile } from '../modules/_file-manage.js';
import { defineState, type StateContext } from '../plugins/states/index.js';
import type { Ret } from './_file-common.js';

/** Salt's `mod_run_check_cmd`: a failed result when `<cmd> <filename>` exits non-zero, else true. */
export async function runCheckCmd(
  ctx: StateContext,
  cmd: string,
  filename: string,
): Promise<true | { comment: string; skip_watch: true; result: false }> {
  const shell = typeof ctx.grains.shell === 'string' ? { shell: ctx.grains.shell } : {};
  const cret = (await ctx.call('cmd.run_all', [`${cmd} ${filename}`], shell)) as Record<string, unknown>;
  if (Number(cret.retcode) === 0) return true;
  let comment = 'check_cmd execution failed';
  if (cret.stdout) comment += `\n${String(cret.stdout)}`;
  if (cret.stderr) comment += `\n${String(cret.stderr)}`;
  return { comment, skip_watch: true, result: false };
}

/**
 * Writes what `file.managed` would write to a temporary file and checks it: the failed return
 * when the check fails, else the source to manage the real file from (`tmp`, whose removal
 * `cleanup` does) or the original one when nothing would change.
 */
export async function checkBeforeManage(
  ctx: StateContext,
  name: string,
  cmd: string,
  o: ManageOptions,
  where: { tmpDir?: string | null; tmpExt?: string | null },
): Promise<{ failed: Ret } | { sfn: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(where.tmpDir || tmpdir(), 'tsalt-check-'));
  const cleanup = () => rm(dir, { recursive: true, force: true });
  const tmp = join(dir, `managed${where.tmpExt ?? ''}`);
  try {
    const exists = await stat(name).then(
      (s) => s.isFile(),
      () => false,
    );
    if (exists) await copyFile(name, tmp);
    const trial = await manageFile(ctx, tmp, { changes: {}, comment: '', name, result: true }, o);
    if (trial.result === false) {
      await cleanup();
      return { failed: { ...trial, changes: {} } };
    }
    if (Object.keys(trial.changes).length === 0) {
      await cleanup();
      return { sfn: o.sfn, cleanup: async () => {} };
    }
    const check = await runCheckCmd(ctx, cmd, tmp);
    if (check !== true) {
      await cleanup();
      // Salt updates {changes, comment, name, result} with the check's result, in that key order
      const failed: Ret = { changes: {}, comment: check.comment, name, result: check.result };
      return { failed: Object.assign(failed, { skip_watch: check.skip_watch }) };
    }
    return { sfn: tmp, cleanup };
  } catch (err) {
    await cleanup();
    return {
      failed: {
        changes: {},
        comment: `Unable to check_cmd file: ${(err as Error).message}`,
        name,
        result: false,
      },
    };
  }
}

/**
 * `file.mod_run_check_cmd` as a function of the module: its presence tells the state runtime
 * that `file.managed` runs its `check_cmd` itself (Salt looks the name up the same way).
 */
export const modRunCheckCmd = defineState({
  args: (z) => z.object({ cmd: z.string(), filename: z.string() }),
  varkw: true, // Salt's **kwargs, unused
  doc: 'Run `<cmd> <filename>`; a failed result when it exits non-zero (what file.managed calls for check_cmd).',
  run: async (ctx, { cmd, filename }) => {
    const check = await runCheckCmd(ctx, cmd, filename);
    const ret: Ret = { changes: {}, comment: '', name: filename, result: true };
    return check === true ? ret : Object.assign(ret, check);
  },
});
