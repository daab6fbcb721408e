/**
 * The clock arithmetic of Salt's `system` module: a `[+-]HHMM` UTC offset, "now" at that offset
 * (or local time), Python's `strftime` for the few formats the module prints, and `strptime`
 * for the formats `set_system_time`/`set_system_date` read.
 */
import { SALT_ERR_INVOCATION } from '../kernel/index.js';

/** A wall-clock time and its offset from UTC in minutes (local time: the machine's). */
export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  weekday: number;
  offset: number | null;
}

/** Salt's `_offset_to_min`: `+0500` is 300, `-0300` is -180. */
export function offsetMinutes(text: string): number {
  const m = /^([+-])?(\d\d)(\d\d)$/.exec(text);
  if (!m) throw new SALT_ERR_INVOCATION('Invalid UTC offset');
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
}

/** Salt's `_get_offset_time`: now at `utcOffset`, else local time. */
export function nowAt(utcOffset: string | null, now = new Date()): WallClock {
  if (utcOffset === null) {
    return {
      year: now.getFullYear(),
      month: now.getMonth() + 1,
      day: now.getDate(),
      hour: now.getHours(),
      minute: now.getMinutes(),
      second: now.getSeconds(),
      weekday: now.getDay(),
      offset: null,
    };
  }
  const offset = offsetMinutes(utcOffset);
  const t = new Date(now.getTime() + offset * 60_000);
  return {
    year: t.getUTCFullYear(),
    month: t.getUTCMonth() + 1,
    day: t.getUTCDate(),
    hour: t.getUTCHours(),
    minute: t.getUTCMinutes(),
    second: t.getUTCSeconds(),
    weekday: t.getUTCDay(),
    offset,
  };
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const p2 = (n: number) => String(n).padStart(2, '0');

/** Python's `strftime` for `%Y %m %d %H %I %M %S %p %a`. */
export function strftime(c: WallClock, fmt: string): string {
  return fmt.replace(/%([YmdHIMSpa])/g, (_m, f: string) => {
    switch (f) {
      case 'Y':
        return String(c.year).padStart(4, '0');
      case 'm':
        return p2(c.month);
      case 'd':
        return p2(c.day);
      case 'H':
        return p2(c.hour);
      case 'I':
        return p2(c.hour % 12 === 0 ? 12 : c.hour % 12);
      case 'M':
        return p2(c.minute);
      case 'S':
        return p2(c.second);
      case 'p':
        return c.hour < 12 ? 'AM' : 'PM';
      default:
        return DAYS[c.weekday] as string;
    }
  });
}

export type Parsed = Partial<Pick<WallClock, 'year' | 'month' | 'day' | 'hour' | 'minute' | 'second'>>;

const FIELD: Record<string, string> = {
  Y: '(\\d{4})',
  y: '(\\d{2})',
  m: '(\\d{1,2})',
  d: '(\\d{1,2})',
  H: '(\\d{1,2})',
  I: '(\\d{1,2})',
  M: '(\\d{1,2})',
  S: '(\\d{1,2})',
  p: '(AM|PM|am|pm)',
};

/** Python's `strptime` for the first of `fmts` that reads `text` whole, or undefined. */
export function strptime(text: string, fmts: readonly string[]): Parsed | undefined {
  for (const fmt of fmts) {
    const order: string[] = [];
    const re = fmt.replace(
      /%([YymdHIMSp])|([^%]+)/g,
      (_m, f: string | undefined, lit: string | undefined) => {
        if (f) {
          order.push(f);
          return FIELD[f] as string;
        }
        return (lit ?? '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+');
      },
    );
    const m = new RegExp(`^${re}$`).exec(text);
    if (!m) continue;
    const out: Parsed = {};
    let pm: boolean | undefined;
    order.forEach((f, i) => {
      const v = m[i + 1] as string;
      if (f === 'p') pm = v.toUpperCase() === 'PM';
      else if (f === 'Y') out.year = Number(v);
      else if (f === 'y') out.year = Number(v) + (Number(v) < 69 ? 2000 : 1900);
      else if (f === 'm') out.month = Number(v);
      else if (f === 'd') out.day = Number(v);
      else if (f === 'H' || f === 'I') out.hour = Number(v);
      else if (f === 'M') out.minute = Number(v);
      else out.second = Number(v);
    });
    if (pm !== undefined && out.hour !== undefined) {
      if (out.hour < 1 || out.hour > 12) continue;
      out.hour = (out.hour % 12) + (pm ? 12 : 0);
    }
    if ((out.month ?? 1) > 12 || (out.day ?? 1) > 31 || (out.hour ?? 0) > 23 || (out.minute ?? 0) > 59)
      continue;
    if ((out.second ?? 0) > 61) continue;
    return out;
  }
  return undefined;
}
