/**
 * Messages between the request worker that starts a task (master/task-spawn.ts) and the
 * task's process (master/children/task-process.ts).
 */

/** The task, sent once over the IPC channel. */
export interface TaskStartMessage {
  type: 'task';
  /** The task's registered name. */
  task: string;
  /** The process's log name after `salt-master/`. */
  title: string;
  payload: unknown;
  /** The master's config dir, for a config with plugins (which do not cross a process boundary). */
  configDir: string;
  /** The master's resolved config as plain data. */
  config: Record<string, unknown>;
  /** Whether the config has plugins: the task process then loads the config itself. */
  reloadConfig: boolean;
}

/** The task finished its work. */
export interface TaskDoneMessage {
  type: 'done';
}
