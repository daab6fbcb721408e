/**
 * Runs one system command for the pkg and service modules (Salt's `cmd.run_all` with
 * `python_shell=False`, as `aptpkg._call_apt` and `debian_service` use it): argv, the C locale,
 * extra environment, optional stdin. It waits for the process to exit, not for every pipe to
 * close, so a daemon an init script leaves behind with our stdout cannot hang the call.
 */
import { spawn } from 'node:child_process';

/** What a command gave back (Salt's `cmd.run_all` dict, minus the pid). */
export interface ExecResult {
  retcode: number;
  stdout: string;
  stderr: string;
}

/** How to run it. */
export interface ExecOptions {
  /** Added to the environment (after `LC_ALL=C`). */
  env?: Readonly<Record<string, string>>;
  /** Written to the child's stdin. */
  stdin?: string;
  /** Aborts (kills the process group) when it fires. */
  signal?: AbortSignal;
  /** Strip trailing whitespace from stdout/stderr, as Salt's `rstrip=True` (default true). */
  rstrip?: boolean;
}

/** How long to wait for pipes to close after the process exits. */
const DRAIN_MS = 1000;

/** Runs `argv`; a program that cannot start gives retcode 127 and the error on stderr. */
export function execCommand(argv: readonly string[], opts: ExecOptions = {}): Promise<ExecResult> {
  const [file, ...args] = argv;
  if (file === undefined) return Promise.resolve({ retcode: 127, stdout: '', stderr: 'empty command' });
  return new Promise((resolve) => {
    const child = spawn(file, args, {
      env: { ...process.env, LC_ALL: 'C', LANG: 'C', LANGUAGE: 'C', ...opts.env },
      stdio: [opts.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      detached: true,
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let code: number | null = null;
    let done = false;
    let drain: NodeJS.Timeout | undefined;
    const strip = (s: string): string => (opts.rstrip === false ? s : s.replace(/\s+$/, ''));
    const finish = (retcode: number, extraErr = ''): void => {
      if (done) return;
      done = true;
      if (drain) clearTimeout(drain);
      opts.signal?.removeEventListener('abort', onAbort);
      resolve({
        retcode,
        stdout: strip(Buffer.concat(out).toString('utf8')),
        stderr: strip(Buffer.concat(err).toString('utf8') + extraErr),
      });
    };
    const onAbort = (): void => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    child.stdout?.on('data', (c: Buffer) => out.push(c));
    child.stderr?.on('data', (c: Buffer) => err.push(c));
    child.once('error', (e) => finish(127, (e as Error).message));
    child.once('exit', (c, sig) => {
      code = c ?? (sig ? 128 : 1);
      // a daemon may hold our pipes: give them a moment, then stop reading
      drain = setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
        finish(code ?? 1);
      }, DRAIN_MS);
    });
    child.once('close', (c) => finish(code ?? c ?? 1));
    if (child.stdin) {
      child.stdin.on('error', () => {
        // the child closed its stdin early: not our concern
      });
      child.stdin.end(opts.stdin);
    }
    if (opts.signal) {
      if (opts.signal.aborted) onAbort();
      else opts.signal.addEventListener('abort', onAbort, { once: true });
    }
  });
}
