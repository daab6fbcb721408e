/**
 * Jobs run in the minion's main process: functions marked `inline` (test.ping, test.echo, ...).
 * Such a function returns a constant or its own arguments; the job process round trip it would
 * otherwise take (two IPC messages, the proc file, a second event loop) cost ~1 ms of CPU per
 * job against microseconds for the function, and it was most of what a minion spent on a
 * `test.ping`.
 *
 * `inline` is a capability any module may declare; the operator decides whose declaration counts.
 * Isolation stays the default: a function runs here only when the file that provides its module
 * is in tsalt's built-in modules folder, or the module's name is one the operator trusts
 * (`inline_modules`); everything else runs in a job process. The other rules hold for both:
 * - a module of the same name in an extension folder or package shadows the built-in one and
 *   runs in a job process unless its name is trusted;
 * - looking a function up imports only the file named after its module, and only a module that
 *   registers itself there (its own name, no `virtual()`) qualifies: untrusted files are never
 *   imported here;
 * - the caller sends a job with returners to a job process (returners do I/O);
 * - Node cannot unload a module: after a module sync (the job processes are recycled) a trusted
 *   module whose folder changed keeps its first code here, so it runs in a job process until
 *   the minion restarts.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { dirname, join, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ModuleDef } from '../kernel/loader/define.js';
import type { JobOutcome } from './execute-job.js';
import { pubData } from './execute-job.js';
import type { JobData } from './job-protocol.js';
import { type RunEnv, runFunction } from './run-function.js';
import { fireSaltErrorFor } from './salt-error-event.js';

/** Whose functions marked `inline` may run in the main process. */
export interface InlinePolicy {
  /** The built-in modules folders (plugins/builtin-dirs.ts). */
  builtinDirs: readonly string[];
  /** Module names (`inline_modules`) trusted wherever their file is: extension folders, packages. */
  trusted?: readonly string[];
}

/** Runs inline jobs under one {@link InlinePolicy}. */
export interface InlineRunner {
  /** Runs `job` here when its function may run inline; undefined when it must go to a job process. */
  run(env: RunEnv, job: JobData): Promise<JobOutcome | undefined>;
  /**
   * Modules were synced (the job processes are being recycled): trusted modules imported here
   * whose folder changed since run in a job process from now on.
   */
  modulesSynced(): Promise<void>;
}

/**
 * Whether `file` is module `mod` with `fn` marked inline, read from the file alone. The loader's
 * lookup would otherwise, for a module that does not load under its own file name (a
 * `virtual()`, another declared name, a failed import), import every other file to find it:
 * code nobody trusted would then run here. Such modules are left to a job process.
 */
async function registersItself(file: string, mod: string, fn: string): Promise<boolean> {
  try {
    // a file that never says `inline` marks no function so: not imported here, where its code
    // would stay for the minion's life (cmd.js and the code it imports, for every cmd.run)
    if (!(await readFile(file, 'utf8')).includes('inline')) return false;
    const def = ((await import(pathToFileURL(file).href)) as { default?: Partial<ModuleDef> }).default;
    return (
      def?.name === mod &&
      def.virtual === undefined &&
      def.functions !== undefined &&
      Object.hasOwn(def.functions, fn) &&
      def.functions[fn]?.inline === true
    );
  } catch {
    return false;
  }
}

/** What a sync could change in a folder: its files (not dot files: the sync manifest) with size and time. */
async function fingerprint(dir: string): Promise<string> {
  try {
    const names = (await readdir(dir)).filter((n) => !n.startsWith('.')).sort();
    const parts = await Promise.all(
      names.map(async (n) => {
        const s = await stat(join(dir, n)).catch(() => undefined);
        return s ? `${n}:${s.size}:${s.mtimeMs}` : n;
      }),
    );
    return parts.join('\n');
  } catch {
    return '';
  }
}

const withSep = (dir: string): string => (dir.endsWith(sep) ? dir : `${dir}${sep}`);

export function createInlineRunner(policy: InlinePolicy): InlineRunner {
  const builtinDirs = policy.builtinDirs.map(withSep);
  const trusted = new Set(policy.trusted ?? []);
  /** {@link registersItself} answers by file and function (a file imported here never changes here). */
  const checked = new Map<string, boolean>();
  /** Folders of trusted modules imported here (outside the built-ins), with their fingerprint then. */
  const imported = new Map<string, Promise<string>>();
  /** Folders that changed after a module of theirs was imported here. */
  const stale = new Set<string>();
  /** The check after the last module sync: lookups of trusted modules wait for it. */
  let syncChecked: Promise<void> = Promise.resolve();

  const qualifies = async (file: string, mod: string, fn: string): Promise<boolean> => {
    const builtin = builtinDirs.some((dir) => file.startsWith(dir));
    if (!builtin) {
      if (!trusted.has(mod)) return false;
      await syncChecked;
      if (stale.has(dirname(file))) return false;
      if (!imported.has(dirname(file))) imported.set(dirname(file), fingerprint(dirname(file)));
      await imported.get(dirname(file));
    }
    const key = `${file}\0${fn}`;
    let ok = checked.get(key);
    if (ok === undefined) {
      ok = await registersItself(file, mod, fn);
      checked.set(key, ok);
    }
    return ok;
  };

  return {
    async run(env, job) {
      const fun = job.fun;
      if (typeof fun !== 'string') return undefined;
      const dot = fun.indexOf('.');
      if (dot <= 0) return undefined;
      const mod = fun.slice(0, dot);
      const file = await env.loader.fileOf(mod);
      if (!file || !(await qualifies(file, mod, fun.slice(dot + 1)))) return undefined;
      const spec = await env.loader.get(fun);
      if (spec?.inline !== true) return undefined;
      // no proc file: the job ends in microseconds, long before a saltutil.find_job could ask for it
      const result = await runFunction(
        env,
        fun,
        Array.isArray(job.arg) ? job.arg : [],
        job.jid,
        undefined,
        pubData(job),
      );
      // a failed job only: the inline path is every test.ping's, kept free of an extra await
      if (result.failure) await fireSaltErrorFor(env, job, result);
      return result;
    },
    modulesSynced() {
      // set now, before the next job's lookup: the recycle comes before the sync job's return
      syncChecked = syncChecked.then(async () => {
        await Promise.all(
          [...imported].map(async ([dir, before]) => {
            if ((await fingerprint(dir)) !== (await before)) stale.add(dir);
          }),
        );
      });
      return syncChecked;
    },
  };
}
