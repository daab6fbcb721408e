/**
 * What the `runner` command and the runner task share: the job they pass, the master id runner
 * jobs are stored under, and Salt's runner event data.
 */

/** The runner task's payload: one runner job. */
export interface RunnerJob {
  fun: string;
  args: unknown[];
  kwargs: Record<string, unknown>;
  jid: string;
  user: string;
}

/** The master id Salt gives runner jobs in the job cache (`<hostname>_master` unless `id` is set). */
export function masterId(config: Readonly<Record<string, unknown>>, hostname: string): string {
  return typeof config.id === 'string' && config.id ? config.id : `${hostname}_master`;
}

/** Salt's runner event data (`SyncClientMixin.low`): `fun`, `jid`, `user`, `fun_args`. */
export function runnerNewEvent(
  fun: string,
  jid: string,
  user: string,
  funArgs: unknown[],
): Record<string, unknown> {
  return { fun: `runner.${fun}`, jid, user, fun_args: funArgs };
}
