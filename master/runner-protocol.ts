/**
 * Messages between a request worker and the runner process it starts for one runner job
 * (master/runner-spawn.ts → master/runner-process.ts).
 */

/** The job, sent once over the IPC channel. */
export interface RunnerJobMessage {
  type: 'run';
  fun: string;
  args: unknown[];
  kwargs: Record<string, unknown>;
  jid: string;
  user: string;
  /** The master's config dir, for a config with plugins (which do not cross a process boundary). */
  configDir: string;
  /** The master's resolved config as plain data. */
  config: Record<string, unknown>;
  /** Whether the config has plugins: the runner process then loads the config itself. */
  reloadConfig: boolean;
}

/** The runner process finished and fired its `ret` event. */
export interface RunnerDoneMessage {
  type: 'done';
  success: boolean;
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
