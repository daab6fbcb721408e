/**
 * Salt's `file.list_backups_dir`: the minion backups (`backup: minion` of the file states) kept
 * in `<cachedir>/file_backup/<dir>`, grouped by the part of each name before its first `_`, each
 * group newest first. A name counts when the rest is Salt's stamp
 * (`_<Day>_<Mon>_<dd>_<HH>:<MM>:<SS>_<micro>_<YYYY>`) and it is a real date.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ExecContext } from '../kernel/index.js';
import { pyDirname } from './_file-fns-meta.js';
import { isDir } from './_file-stat.js';

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const short = (names: string[]) => names.map((n) => n.slice(0, 3));
const alt = (names: string[]) => [...names, ...short(names)].join('|');

/** `_%a_%b_%d_%H:%M:%S_%f_%Y` as Python's strptime reads it (names in either length, any case). */
const STAMP = new RegExp(
  `^_(?:${alt(DAYS)})_(${alt(MONTHS)})_(\\d{1,2})_(\\d{1,2}):(\\d{1,2}):(\\d{1,2})_(\\d{1,6})_(\\d{4})$`,
  'i',
);

export interface BackupEntry {
  'Backup Time': string;
  Size: number;
  Location: string;
}

/** The time a stamp names, as a sortable key and Salt's `%a %b %d %Y %H:%M:%S.%f`; undefined when it is none. */
export function readStamp(rest: string): { key: string; text: string } | undefined {
  const m = STAMP.exec(rest);
  if (!m) return undefined;
  const [, mon, d, h, mi, s, f, y] = m as unknown as string[];
  const month = MONTHS.findIndex((n) => n.toLowerCase().startsWith(mon!.toLowerCase().slice(0, 3)));
  const [day, hour, minute, second, year] = [d, h, mi, s, y].map(Number) as [number, number, number, number, number];
  const when = new Date(Date.UTC(2000, month, day, hour, minute, second));
  when.setUTCFullYear(year);
  if (year < 1 || hour > 23 || minute > 59 || second > 59 || when.getUTCDate() !== day || day < 1) return undefined;
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  const micro = f!.padEnd(6, '0');
  return {
    key: `${p(year, 4)}${p(month)}${p(day)}${p(hour)}${p(minute)}${p(second)}${micro}`,
    text: `${DAYS[when.getUTCDay()]!.slice(0, 3)} ${MONTHS[month]!.slice(0, 3)} ${p(day)} ${p(year, 4)} ${p(hour)}:${p(minute)}:${p(second)}.${micro}`,
  };
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
      byTime.set(when.key, { 'Backup Time': when.text, Size: (await stat(location)).size, Location: location });
    }
    const newest = [...byTime.keys()].sort().reverse();
    const kept = limit === undefined ? newest : newest.slice(0, limit < 0 ? Math.max(0, newest.length + limit) : limit);
    out[group] = Object.fromEntries(kept.slice(0, count).map((k, i) => [i, byTime.get(k)!]));
  }
  return out;
}
