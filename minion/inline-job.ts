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
import { pathToFileURL } from 'node:url';
import type { ModuleDef } from '../kernel/loader/define.js';
import type { JobOutcome } from './execute-job.js';
import { pubData } from './execute-job.js';
import type { JobData } from './job-protocol.js';
import { type RunEnv, runFunction } from './run-function.js';

/**
 * Whether the built-in `file` is module `mod` with `fn` marked inline, read from the file alone.
 * The loader's lookup would otherwise, for a module that does not load under its own file name
 * (a `virtual()`, another declared name, a failed import), import every other file to find it:
 * extension code would then run here. Such modules are left to a job process.
 */
async function registersItself(file: string, mod: string, fn: string): Promise<boolean> {
  const known = checked.get(`${file}\0${fn}`);
  if (known !== undefined) return known;
  let ok = false;
  try {
    const def = ((await import(pathToFileURL(file).href)) as { default?: Partial<ModuleDef> }).default;
    ok =
      def?.name === mod &&
      def.virtual === undefined &&
      def.functions !== undefined &&
      Object.hasOwn(def.functions, fn) &&
      def.functions[fn]?.inline === true;
  } catch {
    ok = false;
  }
  checked.set(`${file}\0${fn}`, ok);
  return ok;
}

/** {@link registersItself} answers, by file and function (built-in files do not change while the minion runs). */
const checked = new Map<string, boolean>();

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
  const mod = fun.slice(0, dot);
  const file = await env.loader.fileOf(mod);
  const dir = builtinDir.endsWith(sep) ? builtinDir : `${builtinDir}${sep}`;
  if (!file?.startsWith(dir) || !(await registersItself(file, mod, fun.slice(dot + 1)))) return undefined;
  const spec = await env.loader.get(fun);
  if (spec?.inline !== true) return undefined;
  // no proc file: the job ends in microseconds, long before a saltutil.find_job could ask for it
  return runFunction(env, fun, Array.isArray(job.arg) ? job.arg : [], job.jid, undefined, pubData(job));
}
