/**
 * Salt's `file.list_backups_dir`: the minion backups (`backup: minion` of the file states) kept
 * in `<cachedir>/file_backup/<dir>`, grouped by the part of each name before its first `_`, each
 * group newest first. A name counts when the rest is Salt's stamp
 * (`_<Day>_<Mon>_<dd>_<HH>:<MM>:<SS>_<micro>_<YYYY>`) and it is a real date.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ExecContext } from '../kernel/index.js';
import { readStamp } from './_file-backup-stamp.js';
import { pyDirname } from './_file-fns-meta.js';
import { isDir } from './_file-stat.js';

export interface BackupEntry {
  'Backup Time': string;
  Size: number;
  Location: string;
}

/** Salt's `list_backups_dir` for `path`, at most `limit` backups in each group. */
export async function listBackupsDir(
  ctx: ExecContext,
  path: string,
  limit: number | undefined,
): Promise<Record<string, Record<number, BackupEntry>>> {
  const bkroot = join(String(ctx.opts.cachedir ?? '/var/cache/salt/minion'), 'file_backup');
  const bkdir = `${bkroot}/${pyDirname(path).slice(1)}`;
  if (!(await isDir(bkdir))) return {};
  const names = (await readdir(bkdir)).sort();
  const groups = new Map<string, number>();
  for (const n of names) {
    const g = n.split('_')[0]!;
    groups.set(g, (groups.get(g) ?? 0) + 1);
  }
  const out: Record<string, Record<number, BackupEntry>> = {};
  for (const [group, count] of groups) {
    const byTime = new Map<string, BackupEntry>();
    for (const n of names) {
      if (n.split('_')[0] !== group) continue;
      const when = readStamp(n.slice(group.length));
      if (!when) continue;
      const location = join(bkdir, n);
      byTime.set(when.key, {
        'Backup Time': when.text,
        Size: (await stat(location)).size,
        Location: location,
      });
    }
    const newest = [...byTime.keys()].sort().reverse();
    const kept =
      limit === undefined ? newest : newest.slice(0, limit < 0 ? Math.max(0, newest.length + limit) : limit);
    out[group] = Object.fromEntries(kept.slice(0, count).map((k, i) => [i, byTime.get(k)!]));
  }
  return out;
}
