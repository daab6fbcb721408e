/**
 * Salt's `file.retention_schedule` state (`salt/states/file.py` `retention_schedule`): the
 * backups in a folder kept by `retain` rules (`most_recent`, `first_of_hour`/`day`/`week`/
 * `month`/`year`, each a count or `all`) and the rest removed. A file's time is read from its
 * name with `strptime_format` (names that do not read are ignored) or else is its mtime, in
 * `timezone` (an IANA name) or local time.
 */
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { isDir } from '../modules/_file-stat.js';
import { strptime } from '../plugins/schedule/index.js';
import { defineState } from '../plugins/states/index.js';
import { expandUser, fail, type Ret } from './_file-common.js';

/** year → month → day → hour → epoch → name (or year → ISO week → weekday → epoch → name). */
type Tree = Map<number, Tree | string>;

interface Stamp {
  year: number;
  month: number;
  day: number;
  hour: number;
  epoch: number;
}

/** The depth each rule keeps "the first of" (Salt's `RETAIN_TO_DEPTH`). */
const DEPTH: Readonly<Record<string, number>> = {
  first_of_year: 1,
  first_of_month: 2,
  first_of_day: 3,
  first_of_hour: 4,
  most_recent: 5,
};

/** Python's `sys.maxsize`: what `all` keeps. */
const ALL = Number.MAX_SAFE_INTEGER;

/** The wall-clock parts of `ms` in `tz`, or in local time. */
function partsIn(ms: number, tz: string | null): Omit<Stamp, 'epoch'> {
  if (!tz) {
    const d = new Date(ms);
    return { year: d.getFullYear(), month: d.getMonth() + 1, day: d.getDate(), hour: d.getHours() };
  }
  const fmt = new Intl.DateTimeFormat('en-US', {
    timeZone: tz,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
  });
  const p = Object.fromEntries(fmt.formatToParts(new Date(ms)).map((x) => [x.type, Number(x.value)]));
  return { year: p.year ?? 1970, month: p.month ?? 1, day: p.day ?? 1, hour: p.hour ?? 0 };
}

/** Python's `date.isocalendar()[1]` and `date.weekday()` (Monday 0). */
function isoWeekAndDay(year: number, month: number, day: number): [number, number] {
  const d = new Date(Date.UTC(year, month - 1, day));
  const weekday = (d.getUTCDay() + 6) % 7;
  const thursday = new Date(d.getTime() + (3 - weekday) * 86_400_000);
  const jan1 = Date.UTC(thursday.getUTCFullYear(), 0, 1);
  return [Math.floor((thursday.getTime() - jan1) / 86_400_000 / 7) + 1, weekday];
}

function put(tree: Tree, keys: readonly number[], name: string): void {
  let node = tree;
  for (const k of keys.slice(0, -1)) {
    let next = node.get(k);
    if (!(next instanceof Map)) {
      next = new Map();
      node.set(k, next);
    }
    node = next;
  }
  node.set(keys[keys.length - 1] as number, name);
}

const sortedKeys = (t: Tree): number[] => [...t.keys()].sort((a, b) => a - b);

/** Salt's `get_first`: the name under the smallest keys. */
function first(node: Tree | string): Set<string> {
  if (typeof node === 'string') return new Set([node]);
  return first(node.get(sortedKeys(node)[0] as number) as Tree | string);
}

/** Salt's `get_first_n_at_depth`: the first name of each of the `n` newest groups at `depth`. */
function firstN(node: Tree | string, depth: number, n: number): Set<string> {
  if (depth <= 0 || typeof node === 'string') return first(node);
  const out = new Set<string>();
  for (const k of sortedKeys(node).reverse()) {
    const needed = n - out.size;
    if (needed < 1) break;
    for (const f of firstN(node.get(k) as Tree | string, depth - 1, needed)) out.add(f);
  }
  return out;
}

/** Python's `sorted(..., reverse=True)` of names. */
const desc = (names: Iterable<string>): string[] => [...names].sort().reverse();

export const retentionSchedule = defineState({
  args: (z) =>
    z.object({
      name: z.string(),
      retain: z.record(z.string(), z.union([z.number(), z.string()])),
      strptime_format: z.string().nullish(),
      timezone: z.string().nullish(),
    }),
  doc: 'Apply retention scheduling to a backup storage directory: keep the backups the retain rules name, delete the rest.',
  run: async (ctx, a) => {
    const name = expandUser(a.name);
    const ret: Ret = { name, changes: {}, result: true, comment: '' };
    if (!name) return fail(ret, 'Must provide name to file.retention_schedule');
    if (!(await isDir(name))) return fail(ret, 'Name provided to file.retention must be a directory');
    for (const [rule, count] of Object.entries(a.retain)) {
      if (rule !== 'first_of_week' && !(rule in DEPTH))
        return fail(
          ret,
          `Unknown retention rule '${rule}': use ${[...Object.keys(DEPTH), 'first_of_week'].join(', ')}`,
        );
      if (count !== 'all' && !/^\s*[+-]?\d+\s*$/.test(String(count)) && typeof count !== 'number')
        return fail(ret, `Retention rule ${rule} takes a number or 'all', not '${count}'`);
    }
    const fmt = a.strptime_format ?? null;
    const tz = a.timezone ?? null;
    const stampOf = async (f: string): Promise<Stamp | null> => {
      if (fmt) {
        const ms = strptime(f, fmt);
        if (ms === undefined) return null;
        const p = partsIn(ms, null);
        const frac = (ms % 1000) / 1000;
        return {
          ...p,
          epoch:
            Date.UTC(
              p.year,
              p.month - 1,
              p.day,
              p.hour,
              new Date(ms).getMinutes(),
              new Date(ms).getSeconds(),
            ) /
              1000 +
            frac,
        };
      }
      if (f === '.' || f === '..') return null;
      const st = await lstat(join(name, f)).catch(() => null);
      if (!st) return null;
      return { ...partsIn(st.mtimeMs, tz), epoch: st.mtimeMs / 1000 };
    };
    const byYmd: Tree = new Map();
    const byWeek: Tree = new Map();
    const relevant = new Set<string>();
    const ignored = new Set<string>();
    for (const f of (await ctx.call('file.readdir', [name])) as string[]) {
      const s = await stampOf(f);
      if (!s) {
        ignored.add(f);
        continue;
      }
      put(byYmd, [s.year, s.month, s.day, s.hour, s.epoch], f);
      const [week, weekday] = isoWeekAndDay(s.year, s.month, s.day);
      put(byWeek, [s.year, week, weekday, s.epoch], f);
      relevant.add(f);
    }
    const retained = new Set<string>();
    for (const [rule, count] of Object.entries(a.retain)) {
      const keep = count === 'all' ? ALL : Math.trunc(Number(count));
      const kept =
        rule === 'first_of_week' ? firstN(byWeek, 2, keep + 1) : firstN(byYmd, DEPTH[rule] as number, keep);
      for (const f of kept) retained.add(f);
    }
    const deleted = desc([...relevant].filter((f) => !retained.has(f)));
    if (deleted.length) ret.changes = { retained: desc(retained), deleted, ignored: desc(ignored) };
    if (ctx.test) {
      ret.comment = `${deleted.length} backups would have been removed from ${name}.\n`;
      if (deleted.length) ret.result = null;
    } else {
      for (const f of deleted) await ctx.call('file.remove', [join(name, f)]);
      ret.comment = `${deleted.length} backups were removed from ${name}.\n`;
    }
    return ret;
  },
});
