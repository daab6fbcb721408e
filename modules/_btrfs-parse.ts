/**
 * Readers of btrfs-progs' text, shaped as Salt's btrfs module returns it: `filesystem show`,
 * `filesystem usage`, `property list`, `subvolume list` and `subvolume show`.
 */
import { pySplitlines } from '../kernel/util.js';
import { pythonError } from './_py-exception.js';

/** Python's error for unpacking `got` items into `want` names. */
const unpack = (want: number, got: number): Error =>
  pythonError(
    'ValueError',
    got > want
      ? `too many values to unpack (expected ${want})`
      : `not enough values to unpack (expected ${want}, got ${got})`,
  );

/** Python's `s.split()`: words between runs of white space. */
export const words = (s: string): string[] => s.split(/\s+/).filter(Boolean);

/** Python's `s.split(sep, 1)` with the two halves, or undefined when `sep` is absent. */
function splitOnce(s: string, sep: string | RegExp): [string, string] | undefined {
  const m = typeof sep === 'string' ? { index: s.indexOf(sep), len: sep.length } : sepMatch(s, sep);
  if (m.index < 0) return undefined;
  return [s.slice(0, m.index), s.slice(m.index + m.len)];
}
function sepMatch(s: string, re: RegExp): { index: number; len: number } {
  const m = re.exec(s);
  return m ? { index: m.index, len: m[0].length } : { index: -1, len: 0 };
}

/**
 * `btrfs filesystem show`: label (null for none), uuid, and the devices by path. As Salt's,
 * the last non-empty line is left out.
 */
export function parseInfo(data: string): Record<string, unknown> {
  const ret: Record<string, unknown> = {};
  for (const line of data
    .split('\n')
    .filter((l) => l)
    .slice(0, -1)) {
    if (line.startsWith('Label:')) {
      const parts = line.replace(/Label:\s+/g, '').split('uuid:');
      if (parts.length !== 2) throw unpack(2, parts.length);
      const [label = '', uuid = ''] = parts.map((p) => p.trim());
      ret.label = label !== 'none' && label ? label : null;
      ret.uuid = uuid;
    } else if (line.startsWith('\tdevid')) {
      const dev = line.trim().split(/\s+/);
      ret[dev[dev.length - 1] ?? ''] = { device_id: dev[1], size: dev[3], used: dev[5] };
    }
  }
  return ret;
}

/** The "Overall:" block of `btrfs filesystem usage`. */
function usageOverall(raw: string): Record<string, string> {
  const data: Record<string, string> = {};
  for (const line of raw.split('\n').slice(1)) {
    const kv = (splitOnce(line.replace(/\s+/g, ' '), ':') ?? [line.replace(/\s+/g, ' ')])
      .map((s) => s.trim())
      .filter(Boolean);
    if (kv.length !== 2) continue;
    const key = (kv[0] ?? '').replace(/[()]/g, '').replaceAll(' ', '_').toLowerCase();
    const value = kv[1] ?? '';
    if (key === 'free_estimated' || key === 'global_reserve') {
      const [main = '', extra = ''] = value.split('(');
      data[key] = main.trim();
      const [sub = '', subValue = ''] = extra.replace(')', '').split(': ');
      data[`${key}_${sub}`] = subValue;
    } else data[key] = value;
  }
  return data;
}

/** `Key:value` as a one-entry record. */
function keyValue(text: string): Record<string, string> {
  const parts = text.split(':');
  if (parts.length !== 2)
    throw pythonError(
      'ValueError',
      `dictionary update sequence element #0 has length ${parts.length}; 2 is required`,
    );
  return { [parts[0] ?? '']: parts[1] ?? '' };
}

/** A profile block ("Data,single: Size:8.00MiB, Used:0.00B (0.00%)" and its devices). */
function usageSpecific(raw: string): Record<string, Record<string, string>> {
  const [head = '', ...devices] = raw.split('\n');
  const [section = '', size = '', used = ''] = head.split(' ');
  const table: Record<string, string> = {};
  for (const val of [size, used]) Object.assign(table, keyValue(val.replaceAll(',', '')));
  for (const dev of devices) Object.assign(table, keyValue(dev.trim().replace(/\s+/g, ':')));
  return { [section.replaceAll(',', '_').replaceAll(':', '').toLowerCase()]: table };
}

/** `btrfs filesystem usage`: overall, one record per profile, unallocated per device. */
export function parseUsage(out: string): Record<string, unknown> {
  const ret: Record<string, unknown> = {};
  for (const section of out.split('\n\n')) {
    if (section.startsWith('Overall:\n')) ret.overall = usageOverall(section);
    else if (section.startsWith('Unallocated:\n')) {
      const un: Record<string, string> = {};
      for (const line of section.split('\n').slice(1)) {
        const kv = line.trim().replace(/\s+/g, ' ').split(' ');
        if (kv.length === 2) un[kv[0] ?? ''] = kv[1] ?? '';
      }
      ret.unallocated = un;
    } else Object.assign(ret, usageSpecific(section));
  }
  return ret;
}

/** `btrfs property list`: description by property name. */
export function parsePropList(data: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of data.split('\n')) {
    const parts = splitOnce(line, /\s+/);
    if (parts) out[parts[0]] = parts[1];
  }
  return out;
}

const LIST_COLUMNS = [
  'ID',
  'gen',
  'cgen',
  'parent',
  'top level',
  'otime',
  'parent_uuid',
  'received_uuid',
  'uuid',
  'path',
] as const;

/** `btrfs subvolume list`: one record per line whose columns all read as Salt's reader reads them. */
export function parseSubvolumeList(stdout: string): Record<string, string>[] {
  const result: Record<string, string>[] = [];
  for (let line of pySplitlines(stdout)) {
    const table: Record<string, string> = {};
    for (const key of LIST_COLUMNS) {
      if (!line.startsWith(key)) {
        line = line.trim();
        continue;
      }
      line = line.slice(key.length).trim();
      let value: string;
      if (key === 'path') [value, line] = [line, ''];
      else {
        const parts = splitOnce(line, ' ');
        if (!parts) throw unpack(2, 1);
        [value, line] = parts;
      }
      line = line.trim();
      if (value) table[key.toLowerCase()] = value;
    }
    if (!line) result.push(table);
  }
  return result;
}

/** `btrfs subvolume show`: its first line names a record of the `key: value` lines after it. */
export function parseSubvolumeShow(stdout: string): Record<string, Record<string, string>> {
  const [first = '', ...rest] = pySplitlines(stdout);
  const table: Record<string, string> = {};
  for (const line of rest) {
    const kv = splitOnce(line, ':');
    if (!kv) throw unpack(2, 1);
    table[kv[0].toLowerCase().trim()] = kv[1].trim();
  }
  return { [first.trim()]: table };
}
