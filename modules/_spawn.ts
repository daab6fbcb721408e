/**
 * Runs one child process for the `cmd` module: its own process group (so a timeout or a
 * job kill takes its children down too), stdin from a buffer, stdout/stderr collected up
 * to a cap, an optional timeout.
 */
import { spawn } from 'node:child_process';
import os from 'node:os';

/**
 * Default per-stream cap on collected output (the minion's `max_cmd_output_size`). Beyond it
 * the output is dropped and counted; the caller marks what it returns (_output-cap.ts).
 */
export const OUTPUT_CAP_BYTES = 64 * 1024 * 1024;

/** What to run and how. */
export interface SpawnSpec {
  /** Program and its arguments; `argv[0]` is looked up in `env.PATH` by the OS. */
  argv: readonly string[];
  cwd: string;
  env: Readonly<Record<string, string>>;
  /** Bytes written to the child's stdin; `null` gives it /dev/null. */
  stdin: Buffer | null;
  /** Kill the process group (SIGKILL) after this many ms. */
  timeoutMs?: number;
  /** Kill the process group when this aborts. */
  signal?: AbortSignal;
  /** Per-stream cap, default {@link OUTPUT_CAP_BYTES}. */
  maxBytes?: number;
}

/** How the child ended. */
export interface SpawnResult {
  pid: number;
  /** Exit status; minus the signal number when a signal ended it (Python's `returncode`); `null` after a timeout or abort. */
  returncode: number | null;
  stdout: Buffer;
  stderr: Buffer;
  timedOut: boolean;
  aborted: boolean;
  /** Which streams went over the cap. */
  truncated: { stdout: boolean; stderr: boolean };
  /** How many bytes of each stream were dropped past the cap. */
  dropped: { stdout: number; stderr: number };
}

class Collector {
  readonly #chunks: Buffer[] = [];
  #size = 0;
  truncated = false;
  /** Bytes that arrived past the cap (counted, not kept). */
  dropped = 0;
  readonly #max: number;

  constructor(max: number) {
    this.#max = max;
  }

  push(chunk: Buffer): void {
    const room = this.#max - this.#size;
    if (room <= 0) {
      this.truncated = true;
      this.dropped += chunk.length;
      return;
    }
    const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
    if (part.length < chunk.length) {
      this.truncated = true;
      this.dropped += chunk.length - part.length;
    }
    this.#chunks.push(part);
    this.#size += part.length;
  }

  get buffer(): Buffer {
    return Buffer.concat(this.#chunks, this.#size);
  }
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

/**
 * Spawns `spec.argv` and waits for it to exit and close its pipes. Rejects with the
 * spawn error (ENOENT, EACCES, ...) when the program cannot be started.
 */
export function runProcess(spec: SpawnSpec): Promise<SpawnResult> {
  const [file, ...args] = spec.argv;
  if (file === undefined) return Promise.reject(new Error('empty command'));
  const max = spec.maxBytes ?? OUTPUT_CAP_BYTES;
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {
      cwd: spec.cwd,
      env: spec.env,
      stdio: [spec.stdin === null ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      detached: true,
    });
    const out = new Collector(max);
    const err = new Collector(max);
    let settled = false;
    let timer: NodeJS.Timeout | undefined;

    const finish = (returncode: number | null, timedOut: boolean, aborted: boolean): void => {
      if (settled) return;
      settled = true;
      if (timer) clearTimeout(timer);
      spec.signal?.removeEventListener('abort', onAbort);
      resolve({
        pid: child.pid ?? 0,
        returncode,
        stdout: out.buffer,
        stderr: err.buffer,
        timedOut,
        aborted,
        truncated: { stdout: out.truncated, stderr: err.truncated },
        dropped: { stdout: out.dropped, stderr: err.dropped },
      });
    };
    const stopNow = (timedOut: boolean): void => {
      killGroup(child.pid);
      child.stdout?.destroy();
      child.stderr?.destroy();
      child.stdin?.destroy();
      finish(null, timedOut, !timedOut);
    };
    const onAbort = (): void => stopNow(false);

    child.stdout?.on('data', (c: Buffer) => out.push(c));
    child.stderr?.on('data', (c: Buffer) => err.push(c));
    child.once('error', (e) => {
      if (settled) return;
      settled = true;
      if (timer) clearTimeout(timer);
      spec.signal?.removeEventListener('abort', onAbort);
      reject(e);
    });
    child.once('close', (code, sig) => {
      const signum = sig ? (os.constants.signals[sig] ?? 0) : 0;
      finish(code ?? -signum, false, false);
    });
    if (child.stdin) {
      child.stdin.on('error', () => {
        // the child closed its stdin early (EPIPE): not our concern
      });
      child.stdin.end(spec.stdin ?? undefined);
    }
    if (spec.timeoutMs !== undefined && spec.timeoutMs > 0) {
      timer = setTimeout(() => stopNow(true), Math.min(spec.timeoutMs, 2 ** 31 - 1));
    }
    if (spec.signal) {
      if (spec.signal.aborted) stopNow(false);
      else spec.signal.addEventListener('abort', onAbort, { once: true });
    }
  });
}

/** Starts `spec.argv` in the background (own process group, no stdio) and returns its pid. */
export function spawnDetached(
  spec: Omit<SpawnSpec, 'stdin' | 'timeoutMs' | 'signal' | 'maxBytes'>,
): Promise<number> {
  const [file, ...args] = spec.argv;
  if (file === undefined) return Promise.reject(new Error('empty command'));
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd: spec.cwd, env: spec.env, stdio: 'ignore', detached: true });
    child.once('error', reject);
    child.once('spawn', () => {
      child.unref();
      resolve(child.pid ?? 0);
    });
  });
}
