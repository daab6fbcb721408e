/**
 * The date strings Salt's scheduler reads and writes, in the minion's local time:
 * - {@link strptime}/{@link strftime}: Python's `datetime.strptime`/`strftime` for the
 *   directives schedules use (`once_fmt`, `time_fmt`; default `%Y-%m-%dT%H:%M:%S`);
 * - {@link parseDate}: what python-dateutil's `parser.parse` makes of `when`, `range`,
 *   `until` and `after` strings: ISO dates and times, `11/29/2026 4:00pm`, `Monday 5:00pm`,
 *   `5pm`, `Jan 5 2027 10:00`. Parts left out come from today (a weekday alone: the next such
 *   day, today included), as dateutil's default does.
 */

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
const MONTH_NAMES =
  'January February March April May June July August September October November December'.split(' ');
const DAY_NAMES = 'Sunday Monday Tuesday Wednesday Thursday Friday Saturday'.split(' ');

export const DEFAULT_TIME_FMT = '%Y-%m-%dT%H:%M:%S';

const p2 = (n: number): string => String(n).padStart(2, '0');

/** Python's `strftime` for %Y %m %d %H %M %S %y %I %p %b %B %a %A %f %j %%; local time. */
export function strftime(ms: number, fmt: string = DEFAULT_TIME_FMT): string {
  const d = new Date(ms);
  return fmt.replace(/%([YmdHMSyIpbBaAfj%])/g, (_, c: string) => {
    switch (c) {
      case 'Y':
        return String(d.getFullYear()).padStart(4, '0');
      case 'm':
        return p2(d.getMonth() + 1);
      case 'd':
        return p2(d.getDate());
      case 'H':
        return p2(d.getHours());
      case 'M':
        return p2(d.getMinutes());
      case 'S':
        return p2(d.getSeconds());
      case 'y':
        return p2(d.getFullYear() % 100);
      case 'I':
        return p2(d.getHours() % 12 || 12);
      case 'p':
        return d.getHours() < 12 ? 'AM' : 'PM';
      case 'b':
        return (MONTH_NAMES[d.getMonth()] ?? '').slice(0, 3);
      case 'B':
        return MONTH_NAMES[d.getMonth()] ?? '';
      case 'a':
        return (DAY_NAMES[d.getDay()] ?? '').slice(0, 3);
      case 'A':
        return DAY_NAMES[d.getDay()] ?? '';
      case 'f':
        return String(d.getMilliseconds() * 1000).padStart(6, '0');
      case 'j': {
        const start = new Date(d.getFullYear(), 0, 1).getTime();
        return String(Math.floor((d.getTime() - start) / 86_400_000) + 1).padStart(3, '0');
      }
      default:
        return '%';
    }
  });
}

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const DIRECTIVES: Readonly<Record<string, string>> = {
  Y: '(\\d{4})',
  m: '(\\d{1,2})',
  d: '(\\d{1,2})',
  H: '(\\d{1,2})',
  M: '(\\d{1,2})',
  S: '(\\d{1,2})',
  y: '(\\d{2})',
  I: '(\\d{1,2})',
  p: '([AaPp][Mm])',
  b: '([A-Za-z]{3})',
  B: '([A-Za-z]+)',
  a: '([A-Za-z]{3})',
  A: '([A-Za-z]+)',
  f: '(\\d{1,6})',
};

/**
 * Python's `datetime.strptime(text, fmt)` in local time, or undefined where Python raises
 * (a directive it does not know here, text that does not match, a day past the month's end).
 */
export function strptime(text: unknown, fmt: string = DEFAULT_TIME_FMT): number | undefined {
  if (typeof text !== 'string') return undefined;
  const order: string[] = [];
  let re = '';
  for (let i = 0; i < fmt.length; i++) {
    const ch = fmt[i] as string;
    if (ch !== '%') {
      re += /\s/.test(ch) ? '\\s+' : escapeRe(ch);
      continue;
    }
    const c = fmt[++i] ?? '';
    if (c === '%') {
      re += '%';
      continue;
    }
    const pattern = DIRECTIVES[c];
    if (!pattern) return undefined;
    order.push(c);
    re += pattern;
  }
  const m = new RegExp(`^${re}$`).exec(text);
  if (!m) return undefined;
  const f = { Y: 1900, m: 1, d: 1, H: 0, M: 0, S: 0, ms: 0, pm: undefined as boolean | undefined };
  for (let k = 0; k < order.length; k++) {
    const v = m[k + 1] as string;
    const c = order[k];
    if (c === 'Y') f.Y = Number(v);
    else if (c === 'y') f.Y = Number(v) + (Number(v) < 69 ? 2000 : 1900);
    else if (c === 'm') f.m = Number(v);
    else if (c === 'd') f.d = Number(v);
    else if (c === 'H' || c === 'I') f.H = Number(v);
    else if (c === 'M') f.M = Number(v);
    else if (c === 'S') f.S = Number(v);
    else if (c === 'f') f.ms = Math.floor(Number(v.padEnd(6, '0')) / 1000);
    else if (c === 'p') f.pm = v.toLowerCase() === 'pm';
    else if (c === 'b' || c === 'B') {
      const i = MONTHS.indexOf(v.slice(0, 3).toLowerCase());
      if (i < 0 || (c === 'B' && MONTH_NAMES[i]?.toLowerCase() !== v.toLowerCase())) return undefined;
      f.m = i + 1;
    }
  }
  if (f.pm !== undefined && order.includes('I')) {
    if (f.H < 1 || f.H > 12) return undefined;
    f.H = (f.H % 12) + (f.pm ? 12 : 0);
  }
  return build(f.Y, f.m, f.d, f.H, f.M, f.S, f.ms);
}

/** A local time from its parts, or undefined when a part is out of range (Feb 30). */
function build(
  Y: number,
  mo: number,
  d: number,
  H: number,
  M: number,
  S: number,
  ms = 0,
): number | undefined {
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || H > 23 || M > 59 || S > 59) return undefined;
  const t = new Date(Y, mo - 1, d, H, M, S, ms);
  if (t.getMonth() !== mo - 1 || t.getDate() !== d) return undefined;
  if (Y < 100) t.setFullYear(Y);
  return t.getTime();
}

interface Parts {
  Y?: number;
  mo?: number;
  d?: number;
  H?: number;
  M?: number;
  S?: number;
  ms?: number;
  weekday?: number;
  pm?: boolean;
  offsetMin?: number;
}

function readTime(token: string, p: Parts): boolean {
  const m = /^(\d{1,2})(?::(\d{2}))?(?::(\d{2})(?:[.,](\d{1,6}))?)?(am|pm|a\.m\.|p\.m\.)?$/i.exec(token);
  if (!m || (m[2] === undefined && m[5] === undefined)) return false;
  p.H = Number(m[1]);
  p.M = m[2] === undefined ? 0 : Number(m[2]);
  p.S = m[3] === undefined ? 0 : Number(m[3]);
  p.ms = m[4] === undefined ? 0 : Math.floor(Number(m[4].padEnd(6, '0')) / 1000);
  if (m[5]) p.pm = m[5].toLowerCase().startsWith('p');
  return true;
}

function readDate(token: string, p: Parts): boolean {
  let m = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/.exec(token);
  if (m) {
    [p.Y, p.mo, p.d] = [Number(m[1]), Number(m[2]), Number(m[3])];
    return true;
  }
  m = /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{2}|\d{4})$/.exec(token);
  if (m) {
    const y = Number(m[3]);
    [p.mo, p.d, p.Y] = [Number(m[1]), Number(m[2]), m[3]?.length === 2 ? 2000 + y : y];
    return true;
  }
  m = /^(\d{4})(\d{2})(\d{2})$/.exec(token);
  if (m) {
    [p.Y, p.mo, p.d] = [Number(m[1]), Number(m[2]), Number(m[3])];
    return true;
  }
  return false;
}

/** Splits `2026-11-29T10:00:00+01:00` into date, time and offset tokens. */
function tokens(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.trim().split(/[\s,]+/)) {
    const iso = /^(\d{4}-\d{1,2}-\d{1,2})T(.+)$/i.exec(raw);
    const parts = iso ? [iso[1] as string, iso[2] as string] : [raw];
    for (const part of parts) {
      const tz = /^(\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?)(Z|[+-]\d{2}:?\d{2})$/i.exec(part);
      if (tz) out.push(tz[1] as string, tz[2] as string);
      else if (part !== '') out.push(part);
    }
  }
  return out;
}

/**
 * What python-dateutil's `parser.parse` reads in `text`, as local time in ms; undefined for
 * text it would refuse. `now` gives the parts the text leaves out.
 */
export function parseDate(text: unknown, now: number): number | undefined {
  if (typeof text === 'number' && Number.isFinite(text)) return undefined;
  if (typeof text !== 'string' || text.trim() === '') return undefined;
  const p: Parts = {};
  let pendingAmPm: boolean | undefined;
  for (const tok of tokens(text)) {
    const lower = tok.toLowerCase().replace(/\.$/, '');
    if (/^(am|pm|a\.m|p\.m)$/.test(lower)) {
      pendingAmPm = lower.startsWith('p');
      continue;
    }
    if (/^(z|utc|gmt)$/.test(lower)) {
      p.offsetMin = 0;
      continue;
    }
    const off = /^([+-])(\d{2}):?(\d{2})$/.exec(tok);
    if (off && p.H !== undefined) {
      p.offsetMin = (off[1] === '-' ? -1 : 1) * (Number(off[2]) * 60 + Number(off[3]));
      continue;
    }
    const wd = WEEKDAYS.indexOf(lower.slice(0, 3));
    if (wd >= 0 && /^[a-z]+$/.test(lower) && p.weekday === undefined) {
      p.weekday = wd;
      continue;
    }
    const mo = MONTHS.indexOf(lower.slice(0, 3));
    if (mo >= 0 && /^[a-z]+$/.test(lower) && p.mo === undefined) {
      p.mo = mo + 1;
      continue;
    }
    if (p.Y === undefined && p.d === undefined && readDate(tok, p)) continue;
    if (p.H === undefined && readTime(tok, p)) continue;
    if (/^\d{1,2}(st|nd|rd|th)?$/.test(lower) && p.d === undefined && p.mo !== undefined) {
      p.d = Number.parseInt(lower, 10);
      continue;
    }
    if (/^\d{4}$/.test(lower) && p.Y === undefined) {
      p.Y = Number(lower);
      continue;
    }
    return undefined;
  }
  if (pendingAmPm !== undefined) {
    if (p.H === undefined) return undefined;
    p.pm = pendingAmPm;
  }
  if (p.pm !== undefined && p.H !== undefined) {
    if (p.H < 1 || p.H > 12) return undefined;
    p.H = (p.H % 12) + (p.pm ? 12 : 0);
  }
  const today = new Date(now);
  let Y = p.Y ?? today.getFullYear();
  let mo = p.mo ?? today.getMonth() + 1;
  let d = p.d ?? today.getDate();
  if (p.weekday !== undefined && p.d === undefined && p.mo === undefined && p.Y === undefined) {
    const jsDay = (p.weekday + 1) % 7;
    const ahead = (jsDay - today.getDay() + 7) % 7;
    const day = new Date(today.getFullYear(), today.getMonth(), today.getDate() + ahead);
    [Y, mo, d] = [day.getFullYear(), day.getMonth() + 1, day.getDate()];
  }
  const local = build(Y, mo, d, p.H ?? 0, p.M ?? 0, p.S ?? 0, p.ms ?? 0);
  if (local === undefined || p.offsetMin === undefined) return local;
  // an explicit offset: the same wall time read in that zone, then shown in local time
  const asUtc = Date.UTC(Y, mo - 1, d, p.H ?? 0, p.M ?? 0, p.S ?? 0, p.ms ?? 0);
  return asUtc - p.offsetMin * 60_000;
}
