/**
 * The `pam` eauth back end without a native addon: Debian's `pamtester` (package
 * `pamtester`) run as `pamtester <service> <user> authenticate acct_mgmt`, the password on its
 * standard input, as Salt 3006's own back end runs a helper process doing `pam_authenticate`
 * then `pam_acct_mgmt` for `auth.pam.service` (default `login`).
 *
 * It never falls through to allowed: only exit status 0 with both of pamtester's success
 * lines passes; a missing binary, a refused argument, a signal, a timeout (the child is
 * killed), a spawn error or anything unexpected denies. The password is never on a command
 * line or in the environment; names that could read as options or split lines are refused;
 * the child gets a minimal environment. At most `maxConcurrent` checks run at once, a bounded
 * queue waits behind them and a full queue denies (a login flood cannot fork without limit).
 * As with Salt, checking other users' passwords through pam_unix needs the master to run as
 * root.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import type { AuthLog } from './eauth-file.js';

export interface PamOptions {
  /** PAM service (Salt's `auth.pam.service`). */
  service: string;
  /** Milliseconds before the child is killed and the login denied. */
  timeoutMs: number;
  /** The pamtester binary; default: the first of {@link PAMTESTER_PATHS} that is executable. */
  binary?: string;
  maxConcurrent: number;
  maxQueued: number;
}

export const PAM_DEFAULTS: PamOptions = {
  service: 'login',
  timeoutMs: 15_000,
  maxConcurrent: 8,
  maxQueued: 256,
};

/** Where pamtester is looked for (fixed paths: no `PATH` lookup). */
export const PAMTESTER_PATHS = ['/usr/bin/pamtester', '/usr/local/bin/pamtester', '/bin/pamtester'];

/** The options from the master config (`auth.pam.service`, `auth.pam.timeout` seconds). */
export function pamOptions(extra: Readonly<Record<string, unknown>> | undefined): PamOptions {
  const service = extra?.['auth.pam.service'];
  const timeout = Number(extra?.['auth.pam.timeout']);
  const binary = extra?.['auth.pam.pamtester'];
  return {
    ...PAM_DEFAULTS,
    ...(typeof service === 'string' && service && { service }),
    ...(Number.isFinite(timeout) && timeout > 0 && { timeoutMs: timeout * 1000 }),
    ...(typeof binary === 'string' && binary && { binary }),
  };
}

/** A name pamtester must not read as an option or PAM as two items. */
function safeName(kind: string, v: string): string | undefined {
  if (!v || v.length > 256) return `the ${kind} must be 1 to 256 characters`;
  if (v.startsWith('-')) return `the ${kind} must not start with "-"`;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\u0000-\u001f\u007f\s]/.test(v)) return `the ${kind} must not hold spaces or control characters`;
  return undefined;
}

/** pamtester's argument list, or why the login is refused before anything runs. */
export function pamtesterArgs(service: string, user: string): string[] | { refused: string } {
  const bad = safeName('PAM service', service) ?? safeName('user name', user);
  if (bad) return { refused: bad };
  return [service, user, 'authenticate', 'acct_mgmt'];
}

/** Why a password cannot be handed to PAM on one line, or undefined. */
export function passwordProblem(password: string): string | undefined {
  if (password.length > 4096) return 'the password is longer than 4096 characters';
  if (/[\0\r\n]/.test(password)) return 'the password holds a line break or NUL';
  return undefined;
}

function findBinary(opts: PamOptions): string | undefined {
  for (const p of opts.binary ? [opts.binary] : PAMTESTER_PATHS) {
    try {
      accessSync(p, constants.X_OK);
      return p;
    } catch {
      // next
    }
  }
  return undefined;
}

/** What one pamtester run ended with. */
export interface PamRun {
  code: number | null;
  signal: string | null;
  stdout: string;
  timedOut: boolean;
  error?: string;
}

/** Only a clean exit with both success lines passes. */
export function pamPassed(r: PamRun): boolean {
  return (
    !r.timedOut &&
    r.error === undefined &&
    r.signal === null &&
    r.code === 0 &&
    r.stdout.includes('successfully authenticated') &&
    r.stdout.includes('account management done')
  );
}

const OUTPUT_MAX = 64 * 1024;

/** Runs `binary args` with `input` on stdin; never rejects. */
export function runWithInput(
  binary: string,
  args: string[],
  input: string,
  timeoutMs: number,
): Promise<PamRun> {
  return new Promise((resolve) => {
    let stdout = '';
    let timedOut = false;
    let settled = false;
    const done = (r: Omit<PamRun, 'stdout' | 'timedOut'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...r, stdout, timedOut });
    };
    // its own process group, so a timeout kills whatever it started too
    const child = spawn(binary, args, {
      stdio: ['pipe', 'pipe', 'ignore'],
      env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin', LANG: 'C', LC_ALL: 'C' },
      shell: false,
      detached: true,
    });
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
      done({ code: null, signal: 'SIGKILL' });
    }, timeoutMs);
    child.stdout?.on('data', (d: Buffer) => {
      if (stdout.length < OUTPUT_MAX) stdout += d.toString('utf8');
    });
    child.on('error', (err) => done({ code: null, signal: null, error: err.message }));
    child.on('close', (code, signal) => done({ code, signal }));
    child.stdin?.on('error', () => undefined); // the child may exit before reading
    child.stdin?.end(`${input}\n`);
  });
}

/** Bounds how many PAM checks run at once. */
class Gate {
  #running = 0;
  readonly #queue: (() => void)[] = [];
  async enter(max: number, maxQueued: number): Promise<boolean> {
    if (this.#running < max) {
      this.#running++;
      return true;
    }
    if (this.#queue.length >= maxQueued) return false;
    // the slot is handed over by leave(): the count never drops between the two
    await new Promise<void>((r) => this.#queue.push(r));
    return true;
  }
  leave(): void {
    const next = this.#queue.shift();
    if (next) next();
    else this.#running--;
  }
}
const gate = new Gate();

/** Checks `username`/`password` with PAM through pamtester; false on any failure. */
export async function pamAuthenticate(
  username: string,
  password: string,
  opts: PamOptions,
  log: AuthLog,
): Promise<boolean> {
  const args = pamtesterArgs(opts.service, username);
  if (!Array.isArray(args)) {
    log.error({ eauth: 'pam' }, `eauth pam: refused: ${args.refused}`);
    return false;
  }
  const pw = passwordProblem(password);
  if (pw) {
    log.error({ eauth: 'pam' }, `eauth pam: refused: ${pw}`);
    return false;
  }
  const binary = findBinary(opts);
  if (!binary) {
    log.error(
      { eauth: 'pam' },
      `eauth pam needs the pamtester program (Debian package pamtester); not found at ${opts.binary ?? PAMTESTER_PATHS.join(', ')}`,
    );
    return false;
  }
  if (!(await gate.enter(opts.maxConcurrent, opts.maxQueued))) {
    log.error({ eauth: 'pam' }, 'eauth pam: too many logins waiting for PAM; refused');
    return false;
  }
  try {
    const r = await runWithInput(binary, args, password, opts.timeoutMs);
    if (pamPassed(r)) return true;
    const why = r.timedOut
      ? `no answer within ${opts.timeoutMs} ms (killed)`
      : r.error
        ? `cannot run ${binary}: ${r.error}`
        : r.signal
          ? `pamtester died of ${r.signal}`
          : `pamtester exit ${r.code}`;
    log.error(
      { eauth: 'pam', user: username, service: opts.service },
      `Pam auth failed for ${username}: ${why}`,
    );
    return false;
  } finally {
    gate.leave();
  }
}
