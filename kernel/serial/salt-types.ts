/**
 * Value classes for the Salt types that have no JavaScript counterpart: Python datetimes
 * (msgpack ext 78), `salt.defaults._Constant` (ext 79) and Python floats whose value is
 * integral (which JS numbers cannot tell apart from ints).
 */

/** msgpack ext type code Salt uses for `datetime`/`date` values. */
export const EXT_DATETIME = 78;
/** msgpack ext type code Salt uses for `salt.defaults._Constant` values. */
export const EXT_CONSTANT = 79;

/**
 * A Salt constant (`salt.defaults._Constant`), such as `NOT_SET`. Travels as ext 79 whose
 * body is `packIpc([name, value])`.
 */
export class SaltConstant {
  readonly name: string;
  readonly value: unknown;

  constructor(name: string, value: unknown = null) {
    this.name = name;
    this.value = value;
  }

  toJSON(): { name: string; value: unknown } {
    return { name: this.name, value: this.value };
  }
}

/** `salt.defaults.NOT_SET`. Compare by `name`: decoding makes a new instance. */
export const NOT_SET: SaltConstant = Object.freeze(new SaltConstant('NOT_SET', null));

/**
 * A number the encoder must write as float 64 even when it is integral. Python keeps
 * `1.0` and `1` apart; a JS number cannot, so integral numbers are packed as ints unless
 * wrapped.
 * @example packIpc({ ratio: float64(1) }) // ratio travels as float 64, not as positive fixint 1
 */
export class SaltFloat {
  readonly value: number;

  constructor(value: number) {
    this.value = value;
  }

  valueOf(): number {
    return this.value;
  }

  toJSON(): number {
    return this.value;
  }
}

/** Wraps `n` so that the encoder writes it as float 64. */
export function float64(n: number): SaltFloat {
  return new SaltFloat(n);
}

// %Y%m%dT%H:%M:%S.%f as Python's strptime accepts it (the field patterns of `_strptime`).
const WIRE_RE =
  /^(\d{4})(1[0-2]|0[1-9]|[1-9])(3[01]|[12]\d|0[1-9]|[1-9]| [1-9])T(2[0-3]|[01]\d|\d):([0-5]\d|\d):(6[01]|[0-5]\d|\d)\.(\d{1,6})$/;
const ISO_RE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?)?$/;

const pad = (n: number, width: number): string => String(n).padStart(width, '0');

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/**
 * A naive Python `datetime` as Salt sends it: ext 78 holding ASCII `%Y%m%dT%H:%M:%S.%f`.
 * The fields are kept exactly (microseconds included), so a decoded value packs to the
 * same bytes; {@link SaltDatetime.toDate} converts to a JS `Date` (reading the fields as
 * UTC, milliseconds precision).
 */
export class SaltDatetime {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
  readonly microsecond: number;

  private constructor(fields: readonly number[]) {
    const [year = 1, month = 1, day = 1, hour = 0, minute = 0, second = 0, microsecond = 0] = fields;
    this.year = year;
    this.month = month;
    this.day = day;
    this.hour = hour;
    this.minute = minute;
    this.second = second;
    this.microsecond = microsecond;
  }

  /** Builds from fields, or returns `undefined` when they are not a valid datetime. */
  static of(
    year: number,
    month: number,
    day: number,
    hour = 0,
    minute = 0,
    second = 0,
    microsecond = 0,
  ): SaltDatetime | undefined {
    const f = [year, month, day, hour, minute, second, microsecond];
    if (!f.every(Number.isInteger)) return undefined;
    if (year < 1 || year > 9999 || month < 1 || month > 12) return undefined;
    if (day < 1 || day > daysInMonth(year, month)) return undefined;
    if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) return undefined;
    if (microsecond < 0 || microsecond > 999_999) return undefined;
    return new SaltDatetime(f);
  }

  /** Parses the ext 78 text (`20251122T10:42:43.493872`) like Python's strptime; `undefined` if invalid. */
  static parseWire(text: string): SaltDatetime | undefined {
    return fromMatch(WIRE_RE.exec(text));
  }

  /** Parses `YYYY-MM-DD[THH:MM:SS[.ffffff]]` (Python `isoformat()`); `undefined` if invalid. */
  static parseIso(text: string): SaltDatetime | undefined {
    return fromMatch(ISO_RE.exec(text));
  }

  /** The UTC fields of `date` (milliseconds become microseconds); `undefined` for an invalid Date. */
  static fromDate(date: Date): SaltDatetime | undefined {
    if (Number.isNaN(date.getTime())) return undefined;
    return SaltDatetime.of(
      date.getUTCFullYear(),
      date.getUTCMonth() + 1,
      date.getUTCDate(),
      date.getUTCHours(),
      date.getUTCMinutes(),
      date.getUTCSeconds(),
      date.getUTCMilliseconds() * 1000,
    );
  }

  /** The ext 78 body text: `%Y%m%dT%H:%M:%S.%f`. */
  toWire(): string {
    return `${pad(this.year, 4)}${pad(this.month, 2)}${pad(this.day, 2)}T${pad(this.hour, 2)}:${pad(
      this.minute,
      2,
    )}:${pad(this.second, 2)}.${pad(this.microsecond, 6)}`;
  }

  /** Python `isoformat(timespec="microseconds")`: `YYYY-MM-DDTHH:MM:SS.ffffff`. */
  toISOString(): string {
    return `${pad(this.year, 4)}-${pad(this.month, 2)}-${pad(this.day, 2)}T${pad(this.hour, 2)}:${pad(
      this.minute,
      2,
    )}:${pad(this.second, 2)}.${pad(this.microsecond, 6)}`;
  }

  /** The fields read as UTC; microseconds are truncated to milliseconds. */
  toDate(): Date {
    const d = new Date(0);
    d.setUTCFullYear(this.year, this.month - 1, this.day);
    d.setUTCHours(this.hour, this.minute, this.second, Math.floor(this.microsecond / 1000));
    return d;
  }

  toJSON(): string {
    return this.toISOString();
  }

  toString(): string {
    return this.toISOString();
  }
}

/** The date a WIRE_RE or ISO_RE match names (a missing time is midnight); `undefined` if invalid. */
function fromMatch(m: RegExpExecArray | null): SaltDatetime | undefined {
  if (!m) return undefined;
  const n = (i: number): number => Number(m[i] ?? 0);
  return SaltDatetime.of(n(1), n(2), n(3), n(4), n(5), n(6), Number((m[7] ?? '0').padEnd(6, '0')));
}
