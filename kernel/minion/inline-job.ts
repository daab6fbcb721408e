/**
 * Jobs run in the minion's main process: built-in functions marked `inline` (test.ping,
 * test.echo, ...). Such a function returns a constant or its own arguments; the job process
 * round trip it would otherwise take (two IPC messages, the proc file, a second event loop)
 * cost ~1 ms of CPU per job against microseconds for the function, and it was most of what a
 * minion spent on a `test.ping`.
 *
 * Isolation still holds for everything else: only files from tsalt's built-in modules folder
 * qualify (a module of the same name in an extension folder or package shadows the built-in
 * one and runs in a job process), the caller sends a job with returners to a job process
 * (returners do I/O), and looking a function up imports only the file named after its module.
 */
import { sep } from 'node:path';
import type { JobOutcome } from './execute-job.js';
import { pubData } from './execute-job.js';
import type { JobData } from './job-protocol.js';
import { type RunEnv, runFunction } from './run-function.js';

/** Runs `job` here when its function is a built-in inline one; undefined when it must go to a job process. */
export async function runInline(
  env: RunEnv,
  builtinDir: string,
  job: JobData,
): Promise<JobOutcome | undefined> {
  const fun = job.fun;
  if (typeof fun !== 'string') return undefined;
  const dot = fun.indexOf('.');
  if (dot <= 0) return undefined;
  const file = await env.loader.fileOf(fun.slice(0, dot));
  const dir = builtinDir.endsWith(sep) ? builtinDir : `${builtinDir}${sep}`;
  if (!file?.startsWith(dir)) return undefined;
  const spec = await env.loader.get(fun);
  if (spec?.inline !== true) return undefined;
  // no proc file: the job ends in microseconds, long before a saltutil.find_job could ask for it
  return runFunction(env, fun, Array.isArray(job.arg) ? job.arg : [], job.jid, undefined, pubData(job));
}
