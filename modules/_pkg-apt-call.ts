/**
 * How the apt backend runs apt-get and dpkg (Salt's `aptpkg._call_apt`): Debian's
 * non-interactive environment, and a few retries with growing pauses while another process
 * holds the dpkg lock.
 */
import type { ExecContext } from '../kernel/index.js';
import { type ExecResult, execCommand } from './_pkg-exec.js';

/** What dpkg and apt get in their environment (Salt's `DPKG_ENV_VARS`). */
export const DPKG_ENV: Readonly<Record<string, string>> = {
  APT_LISTBUGS_FRONTEND: 'none',
  APT_LISTCHANGES_FRONTEND: 'none',
  DEBIAN_FRONTEND: 'noninteractive',
  UCF_FORCE_CONFFOLD: '1',
};

/** What apt and dpkg say when another process holds their lock. */
const LOCKED = /Could not get lock|lock was locked by another process|is locked by another process/;

/** Runs an apt or dpkg command, retrying while another process holds the dpkg lock (Salt's `_call_apt`). */
export async function callApt(
  ctx: ExecContext,
  argv: readonly string[],
  opts: { stdin?: string } = {},
): Promise<ExecResult> {
  let ret = await execCommand(argv, { env: DPKG_ENV, signal: ctx.signal, ...opts });
  for (let n = 1; LOCKED.test(ret.stderr) && n <= 5; n++) {
    ctx.log.warn(`Waiting for dpkg lock release: retrying... ${n}/5`);
    await new Promise((r) => setTimeout(r, 1000 * 2 ** n));
    ret = await execCommand(argv, { env: DPKG_ENV, signal: ctx.signal, ...opts });
  }
  return ret;
}
