/**
 * Salt's `ansible.discover_playbooks` (salt/modules/ansiblegate.py): the playbook files in a
 * folder and in its first-level subfolders, each with the folder's inventory file when there
 * is one. Entries come in the directory's own order (Python's `os.listdir`), not sorted.
 */
import { opendirSync, statSync } from 'node:fs';
import path from 'node:path';
import { type ExecContext, SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import { pyRepr } from '../kernel/python/index.js';

/** One discovered playbook. */
export interface FoundPlaybook {
  fullpath: string;
  custom_inventory?: string;
}

/** What `discover_playbooks` is asked for, defaults applied. */
export interface DiscoverOptions {
  extension: string;
  hostsFilename: string;
  syntaxCheck: boolean;
}

/** Names in `dir` in the order the file system lists them (`os.listdir`; Node's readdir sorts). */
function listdir(dir: string): string[] {
  const names: string[] = [];
  const handle = opendirSync(dir);
  try {
    for (let e = handle.readSync(); e; e = handle.readSync()) names.push(e.name);
  } finally {
    handle.closeSync();
  }
  return names;
}

const isFile = (p: string) => statSync(p, { throwIfNoEntry: false })?.isFile() === true;
const isDir = (p: string) => statSync(p, { throwIfNoEntry: false })?.isDirectory() === true;

function found(dir: string, full: string, hostsFilename: string): FoundPlaybook {
  const hosts = path.join(dir, hostsFilename);
  return isFile(hosts) ? { fullpath: full, custom_inventory: hosts } : { fullpath: full };
}

/** Salt's `_explore_path`: `{}` (and an error logged) for a relative path or a non-folder. */
export async function explorePath(
  ctx: ExecContext,
  root: string,
  opts: DiscoverOptions,
): Promise<Record<string, FoundPlaybook>> {
  const ret: Record<string, FoundPlaybook> = {};
  if (!path.isAbsolute(root)) {
    ctx.log.error(`The given path is not an absolute path: ${root}`);
    return ret;
  }
  if (!isDir(root)) {
    ctx.log.error(`The given path is not a directory: ${root}`);
    return ret;
  }
  const suffix = `.${opts.extension}`;
  try {
    for (const name of listdir(root)) {
      const full = path.join(root, name);
      if (isFile(full) && full.endsWith(suffix)) {
        ret[name] = found(root, full, opts.hostsFilename);
      } else if (isDir(full)) {
        for (const name2 of listdir(full)) {
          const full2 = path.join(full, name2);
          if (isFile(full2) && full2.endsWith(suffix))
            ret[path.join(name, name2)] = found(full, full2, opts.hostsFilename);
        }
      }
    }
  } catch (err) {
    throw new SALT_ERR_EXEC_COMMAND(
      `There was an exception while discovering playbooks: ${(err as Error).message}`,
    );
  }
  if (opts.syntaxCheck) {
    for (const [name, pb] of Object.entries(ret)) {
      // Salt hands cmd.retcode the entry itself (a dict) after the program's arguments, so its
      // command is `ansible-playbook --syntax-check {'fullpath': ...}`, which never passes
      const cmd = ['ansible-playbook', '--syntax-check', pyRepr(pb)];
      try {
        if (await ctx.call('cmd.retcode', [cmd], { reset_system_locale: false })) delete ret[name];
      } catch (err) {
        throw new SALT_ERR_EXEC_COMMAND(
          `There was an exception while checking syntax of playbooks: ${(err as Error).message}`,
        );
      }
    }
  }
  return ret;
}
