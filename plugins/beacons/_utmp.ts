/**
 * What the `btmp` and `wtmp` beacons share (Salt's `salt/beacons/btmp.py`, `wtmp.py`): the
 * 384-byte utmp records read with Salt's struct format `hi32s4s32s256shhiii4i20x`, its field
 * names laid over the first ten values as Salt lays them (so `exit_status` is `e_termination`,
 * `session` is `e_exit`, `time` is `ut_session` and `addr` is `tv_sec`), the new records since
 * the last run (the first run only notes where the file ends), and the users/groups/defaults
 * filter with its `time_range`.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { BeaconContext } from '../../kernel/index.js';

export const RECORD_SIZE = 384;

export interface UtmpEvent {
  type: number;
  PID: number;
  line: string;
  inittab: string;
  user: string;
  hostname: string;
  exit_status: number;
  session: number;
  time: number;
  addr: number;
  action?: string;
  [key: string]: unknown;
}

function text(buf: Buffer, start: number, len: number): string {
  const s = new TextDecoder('utf-8', { fatal: true }).decode(buf.subarray(start, start + len));
  return s.replace(/^\0+|\0+$/g, '');
}

/** One record as Salt's beacons name its values. */
export function parseRecord(buf: Buffer): UtmpEvent {
  return {
    type: buf.readInt16LE(0),
    PID: buf.readInt32LE(4),
    line: text(buf, 8, 32),
    inittab: text(buf, 40, 4),
    user: text(buf, 44, 32),
    hostname: text(buf, 76, 256),
    exit_status: buf.readInt16LE(332),
    session: buf.readInt16LE(334),
    time: buf.readInt32LE(336),
    addr: buf.readInt32LE(340),
  };
}

/** The whole records added to `file` since the last run (none on the first). */
export function newRecords(file: string, state: Map<string, unknown>): UtmpEvent[] {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    let loc = (state.get('loc') as number | undefined) ?? 0;
    if (loc === 0) {
      state.set('loc', size);
      return [];
    }
    const out: UtmpEvent[] = [];
    const buf = Buffer.alloc(RECORD_SIZE);
    while (readSync(fd, buf, 0, RECORD_SIZE, loc) === RECORD_SIZE) {
      loc += RECORD_SIZE;
      state.set('loc', loc);
      out.push(parseRecord(buf));
    }
    return out;
  } finally {
    closeSync(fd);
  }
}

function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Python's `k in v`: a key of a mapping, an item of a list, a part of a string. */
function pyIn(k: string, v: unknown): boolean {
  if (typeof v === 'string') return v.includes(k);
  if (Array.isArray(v)) return v.includes(k);
  return isMap(v) && k in v;
}

/** Salt's `validate` for both beacons (`kind` is `btmp` or `wtmp`). */
export function validateUtmp(kind: string, config: Readonly<Record<string, unknown>>): true | string {
  const range = (t: unknown): true | string => {
    if (!t || (isMap(t) && Object.keys(t).length === 0)) return true;
    if (!['start', 'end'].every((k) => pyIn(k, t)))
      return `The time_range parameter for ${kind} beacon must contain start & end options.`;
    return isMap(t) ? true : `The time_range parameter for ${kind} beacon must be a dictionary.`;
  };
  for (const [key, label] of [
    ['users', 'User'],
    ['groups', 'Group'],
  ] as const) {
    if (!(key in config)) continue;
    const v = config[key];
    if (!isMap(v)) return `${label} configuration for ${kind} beacon must be a dictionary.`;
    let failed: true | string = true;
    for (const entry of Object.values(v)) {
      const r = range(isMap(entry) ? entry.time_range : undefined);
      if (r !== true) failed = r;
    }
    if (failed !== true) return failed;
  }
  if ('defaults' in config) {
    const d = config.defaults;
    if (!isMap(d)) return `Defaults configuration for ${kind} beacon must be a dictionary.`;
    const r = range(d.time_range);
    if (r !== true) return r;
  }
  return true;
}

/** dateutil's reading of a `time_range` bound: a time of day today, or a date and time. */
export function parseWhen(s: unknown, now: Date): Date {
  const str = String(s).trim();
  const m = /^(\d{1,2})(?::(\d{2}))?(?::(\d{2}))?\s*([ap])?\.?m?\.?$/i.exec(str);
  if (m) {
    let h = Number(m[1]);
    const ap = m[4]?.toLowerCase();
    if (ap === 'p' && h < 12) h += 12;
    if (ap === 'a' && h === 12) h = 0;
    const d = new Date(now);
    d.setHours(h, Number(m[2] ?? 0), Number(m[3] ?? 0), 0);
    return d;
  }
  const t = Date.parse(str);
  if (Number.isNaN(t)) throw new Error(`Unknown string format: ${str}`);
  return new Date(t);
}

function inRange(range: Record<string, unknown>, now: Date): boolean {
  return parseWhen(range.start, now) <= now && now <= parseWhen(range.end, now);
}

/** Salt's filter: configured users (groups' members added through `group.info`), else all. */
export async function filterRecords(
  ctx: BeaconContext,
  config: Readonly<Record<string, unknown>>,
  events: UtmpEvent[],
  beforeEach?: (e: UtmpEvent) => void,
): Promise<UtmpEvent[]> {
  const users: Record<string, unknown> = isMap(config.users) ? config.users : {};
  const groups: Record<string, unknown> = isMap(config.groups) ? config.groups : {};
  const defaults = isMap(config.defaults) ? config.defaults : undefined;
  const byDefault = (now: Date) =>
    defaults && 'time_range' in defaults
      ? inRange(defaults.time_range as Record<string, unknown>, now)
      : true;
  const ret: UtmpEvent[] = [];
  for (const event of events) {
    const now = new Date();
    beforeEach?.(event);
    for (const group of Object.keys(groups)) {
      const info = (await ctx.call('group.info', [group])) as { members?: string[] } | undefined;
      if (!info || Object.keys(info).length === 0) {
        ctx.log.warn({ group }, `Group ${group} does not exist, ignoring.`);
        continue;
      }
      for (const member of info.members ?? []) if (!(member in users)) users[member] = groups[group];
    }
    if (Object.keys(users).length > 0) {
      if (!(event.user in users)) continue;
      const u = users[event.user];
      const ok =
        isMap(u) && 'time_range' in u
          ? inRange(u.time_range as Record<string, unknown>, now)
          : byDefault(now);
      if (ok) ret.push(event);
    } else if (byDefault(now)) ret.push(event);
  }
  return ret;
}
