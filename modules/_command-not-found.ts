/**
 * Salt's `CommandNotFoundError`, raised by its `which`/`which_bin` decorators when a function's
 * program is not installed. The minion words it `Command required for '<fun>' not found: <why>`
 * (minion/run-function.ts), as Salt's minion and salt-call do.
 */
import { createError } from '../kernel/index.js';
import { which } from './_which.js';

export const SALT_ERR_CMD_NOT_FOUND = createError('SALT_ERR_CMD_NOT_FOUND', (message: string) => message);

/** Salt's `@which(exe)`: throws its error when `exe` is not on `PATH`. */
export function needProgram(exe: string): void {
  if (!which(exe)) throw new SALT_ERR_CMD_NOT_FOUND(`The '${exe}' binary was not found in $PATH.`);
}

/** Salt's `@which_bin(exes)`: the path of the first of `exes` on `PATH`, else its error. */
export function needOneOf(exes: readonly string[]): string {
  for (const exe of exes) {
    const got = which(exe);
    if (got) return got;
  }
  throw new SALT_ERR_CMD_NOT_FOUND(
    `None of provided binaries([${exes.map((e) => `"'${e}'"`).join(', ')}]) were found in $PATH.`,
  );
}
