/**
 * Cron expressions as Salt's scheduler reads them (through python-croniter): five fields
 * `minute hour day-of-month month day-of-week`, and an optional sixth, last field of seconds
 * (croniter's order: seconds come last, not first as in Quartz). Each field takes `*`, `?`,
 * numbers, ranges `a-b`, steps `*∕n` and `a-b/n`, lists, and month and weekday names (`jan`,
 * `mon`; Sunday is 0 or 7). When both day fields are restricted a day matching either one
 * fires, as in cron and croniter. The `@hourly`, `@daily`, `@weekly`, `@monthly`, `@yearly`
 * shorthands are accepted. Times are the minion's local time.
 */

export interface CronSpec {
  readonly seconds: ReadonlySet<number>;
  readonly minutes: ReadonlySet<number>;
  readonly hours: ReadonlySet<number>;
  readonly days: ReadonlySet<number>;
  readonly months: ReadonlySet<number>;
  /** 0 (Sunday) to 6. */
  readonly weekdays: ReadonlySet<number>;
  /** Whether day-of-month and day-of-week were both restricted (then either one matches). */
  readonly dayOr: boolean;
  readonly dayStar: boolean;
  readonly weekdayStar: boolean;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

const SHORTHANDS: Readonly<Record<string, string>> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

/** A cron expression that cannot be read; the message says which field and why. */
export class CronSyntaxError extends Error {}

function value(text: string, min: number, max: number, names: readonly string[] | undefined): number {
  const lower = text.toLowerCase();
  const named = names ? names.indexOf(lower.slice(0, 3)) : -1;
  if (names && named >= 0 && /^[a-z]+$/.test(lower)) return named + (names === MONTHS ? 1 : 0);
  if (!/^\d+$/.test(text)) throw new CronSyntaxError(`"${text}" is not a number`);
  const n = Number(text);
  if (n < min || n > max) throw new CronSyntaxError(`${n} is out of range ${min}-${max}`);
  return n;
}

function field(text: string, min: number, max: number, names?: readonly string[]): Set<number> {
  const out = new Set<number>();
  for (const part of text.split(',')) {
    if (part === '') throw new CronSyntaxError('empty list item');
    const [range, stepText, extra] = part.split('/');
    if (extra !== undefined) throw new CronSyntaxError(`"${part}" has two steps`);
    const step = stepText === undefined ? 1 : value(stepText, 1, max, undefined);
    let lo: number;
    let hi: number;
    if (range === '*' || range === '?') {
      lo = min;
      hi = max;
    } else {
      const bounds = (range ?? '').split('-');
      if (bounds.length > 2) throw new CronSyntaxError(`"${range}" is not a range`);
      lo = value(bounds[0] ?? '', min, max, names);
      hi = bounds.length === 2 ? value(bounds[1] ?? '', min, max, names) : stepText ? max : lo;
      if (hi < lo) throw new CronSyntaxError(`"${range}" ends before it starts`);
    }
    for (let v = lo; v <= hi; v += step) out.add(v);
  }
  return out;
}

/** Reads a cron expression; throws {@link CronSyntaxError} when it cannot. */
export function parseCron(expression: string): CronSpec {
  if (typeof expression !== 'string') throw new CronSyntaxError('a cron expression is a string');
  const text = SHORTHANDS[expression.trim().toLowerCase()] ?? expression.trim();
  const parts = text.split(/\s+/);
  if (parts.length < 5 || parts.length > 6)
    throw new CronSyntaxError(`expected 5 or 6 fields, found ${text === '' ? 0 : parts.length}`);
  const [min, hour, dom, mon, dow, sec] = parts as [string, string, string, string, string, string?];
  const weekdays = field(dow, 0, 7, WEEKDAYS);
  if (weekdays.delete(7)) weekdays.add(0);
  const dayStar = dom === '*' || dom === '?';
  const weekdayStar = dow === '*' || dow === '?';
  return {
    seconds: sec === undefined ? new Set([0]) : field(sec, 0, 59),
    minutes: field(min, 0, 59),
    hours: field(hour, 0, 23),
    days: field(dom, 1, 31),
    months: field(mon, 1, 12, MONTHS),
    weekdays,
    dayOr: !dayStar && !weekdayStar,
    dayStar,
    weekdayStar,
  };
}

function dayMatches(spec: CronSpec, d: Date): boolean {
  const dom = spec.days.has(d.getDate());
  const dow = spec.weekdays.has(d.getDay());
  if (spec.dayOr) return dom || dow;
  return (spec.dayStar || dom) && (spec.weekdayStar || dow);
}

/** Five years of days: past it no time matches (`0 0 30 2 *`). */
const SEARCH_DAYS = 366 * 5;

/** The first time strictly after `after` (ms since the epoch) that `spec` matches, or undefined. */
export function nextCronTime(spec: CronSpec, after: number): number | undefined {
  const t = new Date(Math.floor(after / 1000) * 1000 + 1000);
  for (let days = 0; days <= SEARCH_DAYS; ) {
    if (!spec.months.has(t.getMonth() + 1)) {
      t.setMonth(t.getMonth() + 1, 1);
      t.setHours(0, 0, 0, 0);
      days += 28;
      continue;
    }
    if (!dayMatches(spec, t)) {
      t.setDate(t.getDate() + 1);
      t.setHours(0, 0, 0, 0);
      days++;
      continue;
    }
    if (!spec.hours.has(t.getHours())) {
      t.setHours(t.getHours() + 1, 0, 0, 0);
      if (t.getHours() === 0) days++;
      continue;
    }
    if (!spec.minutes.has(t.getMinutes())) {
      t.setMinutes(t.getMinutes() + 1, 0, 0);
      continue;
    }
    if (!spec.seconds.has(t.getSeconds())) {
      t.setSeconds(t.getSeconds() + 1, 0);
      continue;
    }
    return t.getTime();
  }
  return undefined;
}
