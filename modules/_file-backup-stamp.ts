/**
 * The stamp Salt's `backup_minion` puts after a backed-up file's name
 * (`_<Day>_<Mon>_<dd>_<HH>:<MM>:<SS>_<micro>_<YYYY>`), read as `list_backups` and
 * `list_backups_dir` read it with Python's `strptime`: day and month names in either length and
 * any case, a real date, the weekday shown as the date's own.
 */
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

/** The time a stamp names, as a sortable key and Salt's `%a %b %d %Y %H:%M:%S.%f`; undefined when it is none. */
export function readStamp(rest: string): { key: string; text: string } | undefined {
  const m = STAMP.exec(rest);
  if (!m) return undefined;
  const [, mon, d, h, mi, s, f, y] = m as unknown as string[];
  const month = MONTHS.findIndex((n) => n.toLowerCase().startsWith(mon!.toLowerCase().slice(0, 3)));
  const [day, hour, minute, second, year] = [d, h, mi, s, y].map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
  const when = new Date(Date.UTC(2000, month, day, hour, minute, second));
  when.setUTCFullYear(year);
  if (year < 1 || hour > 23 || minute > 59 || second > 59 || when.getUTCDate() !== day || day < 1)
    return undefined;
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  const micro = f!.padEnd(6, '0');
  return {
    key: `${p(year, 4)}${p(month)}${p(day)}${p(hour)}${p(minute)}${p(second)}${micro}`,
    text: `${DAYS[when.getUTCDay()]!.slice(0, 3)} ${MONTHS[month]!.slice(0, 3)} ${p(day)} ${p(year, 4)} ${p(hour)}:${p(minute)}:${p(second)}.${micro}`,
  };
}
