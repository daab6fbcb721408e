/**
 * The minion's host grains (grains.ts's `coreGrains`, as the minion process found them at start
 * or at its last grains refresh), handed to each job process it starts, as Salt's forked jobs
 * inherit the minion's grains: a job sees the minion's `pid`, not its own process's, and a job
 * process does not probe the host again (the probes and their code are ~15-25 ms of its start).
 */

export const HOST_GRAINS_ENV = 'TSALT_HOST_GRAINS';

/** Larger host grains (thousands of interfaces) are left to the job process: one environment string holds at most 128 KiB. */
const MAX_BYTES = 64 * 1024;

/** The environment that hands `host` to a job process (nothing when it is too large). */
export function hostGrainsEnv(host: Readonly<Record<string, unknown>>): Record<string, string> {
  const text = JSON.stringify(host);
  return Buffer.byteLength(text) <= MAX_BYTES ? { [HOST_GRAINS_ENV]: text } : {};
}

/**
 * The host grains this process was handed, if any; taken out of the environment, so the
 * commands a job runs do not inherit them.
 */
export function takeHostGrains(): Record<string, unknown> | undefined {
  const raw = process.env[HOST_GRAINS_ENV];
  delete process.env[HOST_GRAINS_ENV];
  if (!raw) return undefined;
  try {
    const host: unknown = JSON.parse(raw);
    if (typeof host === 'object' && host !== null && !Array.isArray(host))
      return host as Record<string, unknown>;
  } catch {
    // probed again below
  }
  return undefined;
}
