/**
 * Tasks: one-shot master processes a plugin's request command starts for one piece of work
 * (Salt's `AsyncClientMixin._proc_function`, which runs each runner job in a process of its
 * own). A plugin registers the task (`api.tasks.register(defineTask({...}))`); its command
 * starts it with `ctx.startTask(name, payload, ...)` and answers at once. The task's process
 * applies the master's plugins, finds the definition by name and runs it; a task that dies
 * or outlives its time is reported to the command through `onFailure`, so a hang or a crash
 * never touches the request server.
 */
import type { MasterJobCache } from '../jobs/master-job-cache.js';
import type { RunnerReturn } from '../jobs/types.js';
import type { DaemonProcessContext } from './daemon-process.js';

/** What a task receives in its process: what a daemon process receives, and more. */
export interface TaskContext extends DaemonProcessContext {
  /** The master job cache (`master_job_cache`); `undefined` when it could not be opened. */
  readonly jobCache: MasterJobCache | undefined;
  /** Runs the `runnerReturned` hook: for a task that ran a runner function, once its return is stored. */
  runnerReturned(ret: RunnerReturn): Promise<void>;
}

/** A one-shot process a plugin's command starts. */
export interface TaskDef<Payload = unknown> {
  /** Unique among the master's tasks: `runner`, `acme-export`, ... */
  readonly name: string;
  /**
   * Does the work. `payload` is what the command passed to `startTask` (a structured clone).
   * Resolving ends the task; a throw is logged and reported to the command as a crash.
   */
  run(ctx: TaskContext, payload: Payload): Promise<void>;
}

/** Why a task ended without finishing its work. */
export type TaskFailure =
  | { readonly reason: 'crashed'; readonly detail: string }
  | { readonly reason: 'timeout'; readonly seconds: number };

/** How a command starts a task. */
export interface StartTaskOptions {
  /** Seconds the task may run before it is stopped (SIGTERM, then SIGKILL); unset: no bound. */
  readonly timeoutSeconds?: number;
  /** The task process's log name after `salt-master/`; default the task's name. */
  readonly title?: string;
  /** Called once when the task ends without finishing (crash, exit, timeout). */
  onFailure(failure: TaskFailure): void;
}

/**
 * Types a task. A typing aid only.
 * @example
 * api.tasks.register(defineTask<{ path: string }>({
 *   name: 'acme-export',
 *   async run(ctx, { path }) { await ctx.fire('acme/export/done', { path }); },
 * }));
 */
export function defineTask<Payload>(def: TaskDef<Payload>): TaskDef<Payload> {
  return def;
}
