/**
 * Salt's `kmod` execution module (`salt/modules/kmod.py`): the kernel modules this machine has
 * (`/lib/modules/<release>`), those loaded (`lsmod`), loading (`modprobe`) and removing
 * (`rmmod`) one, and keeping it across reboots in the modules file (`_kmod-persist.ts`).
 */
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { defineFunction, defineModule, type ExecContext, SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import {
  addPersistent,
  moduleName,
  modulesConf,
  persistentModules,
  removePersistent,
} from './_kmod-persist.js';
import { which } from './_which.js';

/** One `lsmod` row as Salt returns it: every field a string. */
export interface LsmodRow {
  size: string;
  module: string;
  depcount: string;
  deps: string[];
}

/** Salt's parse of `lsmod` output: the header and short lines skipped. */
export function parseLsmod(out: string): LsmodRow[] {
  const rows: LsmodRow[] = [];
  for (const line of out.split('\n')) {
    const c = line.trim().split(/\s+/);
    if (c.length <= 2 || c[0] === 'Module') continue;
    rows.push({
      size: c[1] as string,
      module: c[0] as string,
      depcount: c[2] as string,
      deps: c[3] ? c[3].split(',') : [],
    });
  }
  return rows;
}

function program(name: string): string {
  const found = which(name);
  if (!found) throw new SALT_ERR_EXEC_COMMAND(`Command '${name}' cannot be found`);
  return found;
}

type RunAll = { retcode: number; stdout: string; stderr: string };
const runAll = async (ctx: ExecContext, argv: string[], ignoreRetcode = true) =>
  (await ctx.call('cmd.run_all', [argv], { python_shell: false, ignore_retcode: ignoreRetcode })) as RunAll;

/**
 * The loaded modules. Salt parses the program's stderr too (its error lines become rows); tsalt
 * reads stdout only. A failing `lsmod` sets the job's retcode, as Salt's plain `cmd.run` does.
 */
async function lsmod(ctx: ExecContext): Promise<LsmodRow[]> {
  return parseLsmod((await runAll(ctx, [program('lsmod')], false)).stdout);
}

async function loadedNames(ctx: ExecContext): Promise<string[]> {
  return [...new Set((await lsmod(ctx)).map((r) => r.module))].sort();
}

async function walkKo(dir: string, out: string[]): Promise<void> {
  let entries: import('node:fs').Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    if (e.isDirectory()) await walkKo(path.join(dir, e.name), out);
    else if (e.name.includes('.ko')) out.push(e.name.slice(0, e.name.indexOf('.ko')).replace(/-/g, '_'));
  }
}

/** The modules of the running kernel: `modules.builtin` entries and every `.ko*` file, sorted. */
async function available(ctx: ExecContext): Promise<string[]> {
  const release = os.release();
  const dir = path.join('/lib/modules', release);
  const out: string[] = [];
  const builtin = path.join(dir, 'modules.builtin');
  if (existsSync(builtin))
    for (const line of (await readFile(builtin, 'utf8')).split(/(?<=\n)/))
      if (line !== '') out.push(path.basename(line).slice(0, -4));
  await walkKo(dir, out);
  if (String(ctx.grains.os_family ?? '').includes('Arch'))
    await walkKo(`/lib/modules/extramodules-${release.slice(0, 3)}-ARCH`, out);
  return out.sort();
}

/** Changes the loaded set with `argv`; the modules that came or went (and those persisted), or Salt's error text. */
async function change(
  ctx: ExecContext,
  mod: string,
  argv: string[],
  verb: 'loading' | 'removing',
  persisted: () => Promise<string[]>,
): Promise<string[] | string> {
  const before = new Set(await loadedNames(ctx));
  const res = await runAll(ctx, argv);
  if (res.retcode !== 0) return `Error ${verb} module ${mod}: ${res.stderr}`;
  const after = new Set(await loadedNames(ctx));
  const changed =
    verb === 'loading' ? [...after].filter((m) => !before.has(m)) : [...before].filter((m) => !after.has(m));
  return [...new Set([...changed, ...(await persisted())])].sort();
}

export default defineModule({
  name: 'kmod',
  doc: 'Manage Linux kernel modules: list, load, remove, and keep them across reboots.',
  virtual: (ctx) => (ctx.grains.kernel === 'Linux' ? true : { ok: false, reason: 'kmod: Linux only' }),
  functions: {
    available: defineFunction({
      doc: "Return a list of all available kernel modules\n\nCLI Example: salt '*' kmod.available",
      run: (ctx) => available(ctx),
    }),
    check_available: defineFunction({
      args: (z) => z.object({ mod: z.union([z.string(), z.number()]).transform(String) }),
      doc: "Check to see if the specified kernel module is available\n\nCLI Example: salt '*' kmod.check_available kvm",
      run: async (ctx, a) => (await available(ctx)).includes(a.mod),
    }),
    lsmod: defineFunction({
      doc: "Return a dict containing information about currently loaded modules\n\nCLI Example: salt '*' kmod.lsmod",
      run: (ctx) => lsmod(ctx),
    }),
    mod_list: defineFunction({
      args: (z) => z.object({ only_persist: z.boolean().default(false) }),
      doc: "Return a list of the loaded module names (only_persist=True: those in the modules file)\n\nCLI Example: salt '*' kmod.mod_list",
      run: (ctx, a) => (a.only_persist ? persistentModules(modulesConf(ctx.grains)) : loadedNames(ctx)),
    }),
    is_loaded: defineFunction({
      args: (z) => z.object({ mod: z.union([z.string(), z.number()]).transform(String) }),
      doc: "Check to see if the specified kernel module is loaded\n\nCLI Example: salt '*' kmod.is_loaded kvm",
      run: async (ctx, a) => (await loadedNames(ctx)).includes(a.mod),
    }),
    load: defineFunction({
      args: (z) =>
        z.object({
          mod: z.union([z.string(), z.number()]).transform(String),
          persist: z.boolean().default(false),
        }),
      doc: "Load the specified kernel module (persist=True: also write it to the modules file)\n\nCLI Example: salt '*' kmod.load kvm",
      run: (ctx, a) =>
        change(ctx, a.mod, [program('modprobe'), ...a.mod.split(/\s+/)], 'loading', async () => {
          const conf = modulesConf(ctx.grains);
          const name = moduleName(a.mod);
          if (
            !name ||
            (await persistentModules(conf)).includes(name) ||
            !(await available(ctx)).includes(name)
          )
            return [];
          await addPersistent(conf, a.mod);
          return [name];
        }),
    }),
    remove: defineFunction({
      args: (z) =>
        z.object({
          mod: z.union([z.string(), z.number()]).transform(String),
          persist: z.boolean().default(false),
          comment: z.boolean().default(true),
        }),
      doc: "Remove the specified kernel module (persist=True: also from the modules file, commented out unless comment=False)\n\nCLI Example: salt '*' kmod.remove kvm",
      run: (ctx, a) =>
        change(ctx, a.mod, [program('rmmod'), ...a.mod.split(/\s+/)], 'removing', async () => {
          const conf = modulesConf(ctx.grains);
          const name = moduleName(a.mod);
          if (!a.persist || !name || !(await persistentModules(conf)).includes(name)) return [];
          await removePersistent(conf, a.mod, a.comment);
          return [name];
        }),
    }),
  },
});
