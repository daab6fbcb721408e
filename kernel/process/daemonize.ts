/**
 * Salt's `-d`/`--daemon`: run the same command again in the background, detached from the
 * terminal (new session), with stdio on /dev/null or the log file. The background copy writes
 * its own pidfile; the caller (the bin) exits 0 once {@link daemonize} resolves.
 */

import { spawn } from 'node:child_process';
import type { FileHandle } from 'node:fs/promises';
import { mkdir, open } from 'node:fs/promises';
import { dirname } from 'node:path';
import { SALT_ERR_PROCESS_DAEMONIZE } from '../errors.js';

/** Set to `'1'` in the background copy's environment. */
export const DAEMONIZED_ENV = 'TSALT_DAEMONIZED';

const DAEMON_FLAGS = new Set(['-d', '--daemon']);

/** Whether this process is the background copy made by {@link daemonize}. */
export function isDaemonized(env: NodeJS.ProcessEnv = process.env): boolean {
  return env[DAEMONIZED_ENV] === '1';
}

/** The arguments without `-d`/`--daemon` (arguments after a `--` are left alone). */
export function stripDaemonFlags(args: readonly string[]): string[] {
  const out: string[] = [];
  let rest = false;
  for (const arg of args) {
    if (!rest && arg === '--') rest = true;
    if (!rest && DAEMON_FLAGS.has(arg)) continue;
    out.push(arg);
  }
  return out;
}

/**
 * Re-spawns this command detached. `argv` is shaped like `process.argv`
 * (`[node, script, ...args]`); the copy also gets this process's `execArgv` and cwd, and
 * `TSALT_DAEMONIZED=1`. Its stdout and stderr go to `logFile` (appended, directory created)
 * or /dev/null. Resolves with the copy's pid once it has been spawned; prints nothing.
 */
export async function daemonize(argv: readonly string[] = process.argv, logFile?: string): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '') {
    throw new SALT_ERR_PROCESS_DAEMONIZE('empty command line');
  }
  let log: FileHandle | undefined;
  if (logFile !== undefined) {
    try {
      await mkdir(dirname(logFile), { recursive: true });
      log = await open(logFile, 'a', 0o640);
    } catch (err) {
      throw new SALT_ERR_PROCESS_DAEMONIZE(`cannot open log file ${logFile}: ${String(err)}`, { cause: err });
    }
  }
  try {
    const child = spawn(command, [...process.execArgv, ...stripDaemonFlags(rest)], {
      detached: true,
      cwd: process.cwd(),
      env: { ...process.env, [DAEMONIZED_ENV]: '1' },
      stdio: log ? ['ignore', log.fd, log.fd] : 'ignore',
    });
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', reject);
    });
    child.unref();
    if (child.pid === undefined) throw new Error('no pid');
    return child.pid;
  } catch (err) {
    throw new SALT_ERR_PROCESS_DAEMONIZE(err instanceof Error ? err.message : String(err), { cause: err });
  } finally {
    await log?.close();
  }
}
