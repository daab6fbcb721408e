/**
 * Command-line errors, printed as Salt's optparse does (`Usage: ...` then `<prog>: error: ...`)
 * with Salt's exit code 64 (`EX_USAGE`); cli/optparse.ts maps commander's errors to them.
 */
import { createError } from '../kernel/errors.js';

/** A command line the CLI cannot take (Salt's optparse error). */
export const SALT_ERR_CLI_USAGE = createError('SALT_ERR_CLI_USAGE', (message: string) => message);

/** Salt's `salt.defaults.exitcodes.EX_USAGE`. */
export const EX_USAGE = 64;

/** Prints `Usage: ...` and `<prog>: error: <message>` to stderr and exits 64. */
export function usageError(prog: string, usage: string, message: string): never {
  process.stderr.write(`Usage: ${usage}\n\n${prog}: error: ${message}\n`);
  process.exit(EX_USAGE);
}

/** Prints a failure with its code and exits with `code`. */
export function fail(prog: string, err: unknown, exitCode = 2): never {
  const e = err as { code?: string; message?: string; cause?: { message?: string } };
  const tag = e.code && e.code !== SALT_ERR_CLI_USAGE.code ? ` [${e.code}]` : '';
  const cause = e.cause?.message ? `\n  caused by: ${e.cause.message}` : '';
  process.stderr.write(`${prog}: error: ${e.message ?? String(err)}${tag}${cause}\n`);
  process.exit(exitCode);
}
