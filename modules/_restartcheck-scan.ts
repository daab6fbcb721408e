/**
 * The /proc scan of Salt's `restartcheck` module: every process's memory maps and open files
 * that point at deleted or replaced files (`(deleted)`, `(path inode=N)`), minus the folders
 * Salt ignores (logs, temp, /home, ...). Processes are read in pid order, as psutil lists them.
 */
import { existsSync, statSync } from 'node:fs';
import { readdir, readFile, readlink, realpath } from 'node:fs/promises';
import path from 'node:path';

/** Paths under these are never reported (Salt's LIST_DIRS, matched at the start). */
const IGNORED = new RegExp(
  [
    '^/var/log/',
    '^/var/local/log/',
    '^/var/run/',
    '^/var/local/run/',
    '^/tmp/',
    '^/dev/shm/',
    '^/run/',
    '^/drm',
    '^/var/tmp/',
    '^/var/local/tmp/',
    '^/dev/zero',
    '^/dev/pts/',
    '^/usr/lib/locale/',
    '^/home/',
    '^.*icon-theme.cache',
    '^/var/cache/fontconfig/',
    '^/var/lib/nagios3/spool/',
    '^/var/lib/nagios3/spool/checkresults/',
    '^/var/lib/postgresql/',
    '^/var/lib/vdr/',
    '^/[aio]',
    '^/SYSV',
  ].join('|'),
);

/** One line of /proc/<pid>/maps with an inode and a path (Salt's pattern, two-digit device numbers). */
const MAPLINE =
  /^[\da-f]+-[\da-f]+ [r-][w-][x-][sp-] [\da-f]+ [\da-f]{2}:[\da-f]{2} (\d+) *(.+)( \(deleted\))?$/;

export function validDeletedFile(p: string): boolean {
  if (!p.endsWith(' (deleted)') && !/\(path inode=[0-9]+\)$/.test(p)) return false;
  return !IGNORED.test(p);
}

/** A process holding a deleted file: its name, pid and the file. */
export interface DeletedFile {
  name: string;
  pid: number;
  path: string;
}

/** psutil's process name: the kernel's 15-character `comm`, completed from argv[0] when cut. */
async function processName(pid: number): Promise<string> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
  if (name.length < 15) return name;
  try {
    const argv0 = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0')[0] ?? '';
    const base = path.basename(argv0);
    return base.startsWith(name) ? base : name;
  } catch {
    return name;
  }
}

const isFile = (p: string) => existsSync(p) && statSync(p).isFile();
const isDir = (p: string) => existsSync(p) && statSync(p).isDirectory();

/** Every file under `dir`, following links to folders (each real folder once, so a loop ends). */
async function walkFiles(dir: string, seen = new Set<string>()): Promise<string[]> {
  let real: string;
  try {
    real = await realpath(dir);
  } catch {
    return [];
  }
  if (seen.has(real)) return [];
  seen.add(real);
  const out: string[] = [];
  let entries: string[];
  try {
    entries = await readdir(dir);
  } catch {
    return out;
  }
  const subdirs: string[] = [];
  for (const e of entries) {
    const full = path.join(dir, e);
    if (isDir(full)) subdirs.push(full);
    else out.push(full);
  }
  for (const d of subdirs) out.push(...(await walkFiles(d, seen)));
  return out;
}

/**
 * The deleted files processes hold, or `false` when a process's maps or fd folder cannot be
 * read (Salt then gives up: "Could not get list of processes"). A process that ends while it
 * is read is passed over.
 */
export async function* deletedFiles(check: () => void, only?: number[]): AsyncGenerator<DeletedFile | false> {
  const pids =
    only ??
    (await readdir('/proc'))
      .filter((d) => /^\d+$/.test(d))
      .map(Number)
      .sort((a, b) => a - b);
  const seen = new Set<string>();
  for (const pid of pids) {
    let name: string;
    try {
      name = await processName(pid);
    } catch {
      continue; // gone before it could be read (psutil's NoSuchProcess)
    }
    const dirpath = `/proc/${pid}/fd/`;
    let maps: string;
    let fds: string[];
    try {
      maps = await readFile(`/proc/${pid}/maps`, 'utf8');
      fds = await readdir(dirpath);
    } catch {
      yield false;
      return;
    }
    const found: string[] = [];
    for (const line of maps.split('\n')) {
      const m = MAPLINE.exec(line);
      const p = m?.[2];
      if (p && validDeletedFile(p)) found.push(p.slice(0, -10));
    }
    for (const link of fds) {
      let target: string;
      try {
        target = await readlink(dirpath + link);
      } catch {
        continue;
      }
      const files = isFile(target)
        ? [target]
        : isDir(target) && target !== '/'
          ? await walkFiles(target)
          : [];
      for (const f of files) if (validDeletedFile(f)) found.push(f);
    }
    for (const p of found) {
      check();
      const key = `${pid}\0${p}`;
      if (seen.has(key)) continue;
      seen.add(key);
      yield { name, pid, path: p };
    }
  }
}
