/**
 * What the status, disk, mount and ps modules share: Python's `_number` of a /proc field,
 * bounded reads of /proc files, and programs run as argv (never through a shell).
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Salt's `status._number`: an int for digits, else a float, else the text. */
export function pyNumber(text: string): number | string {
  if (/^\d+$/.test(text)) return Number(text);
  const t = text.trim();
  if (/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(t)) return Number(t);
  return text;
}

/** The text of a /proc or /sys file (at most 4 MiB), or undefined when it cannot be read. */
export function readProc(path: string): string | undefined {
  try {
    const buf = readFileSync(path);
    return buf.subarray(0, 4 * 1024 * 1024).toString('utf8');
  } catch {
    return undefined;
  }
}

export interface ProgramResult {
  stdout: string;
  stderr: string;
  retcode: number;
}

/** Runs `argv[0]` with the rest as its arguments, no shell, C locale, bounded in time and output. */
export function runProgram(argv: readonly string[], timeoutMs = 30_000): Promise<ProgramResult> {
  return new Promise((resolve) => {
    execFile(
      argv[0]!,
      argv.slice(1),
      { timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, LC_ALL: 'C', LANG: 'C' } },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : 127) : 0;
        resolve({ stdout: String(stdout), stderr: String(stderr), retcode: code });
      },
    );
  });
}

/** Python's `str.split()`: runs of whitespace, no empty fields. */
export function pySplit(s: string): string[] {
  return s.split(/\s+/).filter((x) => x !== '');
}
