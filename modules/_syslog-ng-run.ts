/**
 * How Salt's `syslog_ng` module runs syslog-ng and syslog-ng-ctl: `cmd.run_all` without a
 * shell, the optional sbin folder appended to PATH (`_run_command_in_extended_path`), and the
 * `{retcode, stdout?, stderr?}` answers of `_format_return_data`; a program that cannot run
 * answers retcode -1 with cmd's error text, as Salt's `except CommandExecutionError` does.
 */
import { delimiter } from 'node:path';
import type { ExecContext } from '../kernel/index.js';

export interface RunAll {
  pid: number;
  retcode: number;
  stdout: string;
  stderr: string;
}

/** Salt's `_format_return_data`: retcode, then stdout and stderr when given. */
export function returnData(retcode: unknown, stdout?: unknown, stderr?: unknown): Record<string, unknown> {
  const ret: Record<string, unknown> = { retcode };
  if (stdout !== undefined && stdout !== null) ret.stdout = stdout;
  if (stderr !== undefined && stderr !== null) ret.stderr = stderr;
  return ret;
}

/** A command error's text, or the error itself rethrown when it is something else. */
function commandError(err: unknown): string {
  if ((err as { code?: string }).code === 'SALT_ERR_EXEC_COMMAND') return (err as Error).message;
  throw err;
}

/** Runs `argv` through cmd.run_all (no shell). */
export async function runAll(
  ctx: ExecContext,
  argv: readonly string[],
  env: Record<string, string> | null = null,
): Promise<RunAll> {
  return (await ctx.call('cmd.run_all', [argv], { env, python_shell: false })) as RunAll;
}

/** Runs `cmd params` with `sbinDir` (when set) at the end of PATH; a command error is retcode -1. */
export async function runInPath(
  ctx: ExecContext,
  sbinDir: unknown,
  cmd: string,
  params: readonly string[],
): Promise<RunAll | { error: string }> {
  const env = sbinDir ? { PATH: [process.env.PATH ?? '', String(sbinDir)].join(delimiter) } : null;
  try {
    return await runAll(ctx, [cmd, ...params], env);
  } catch (err) {
    return { error: commandError(err) };
  }
}
