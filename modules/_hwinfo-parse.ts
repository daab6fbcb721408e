/**
 * Readers of `hwinfo` reports as Salt's devinfo module shapes them: the `--short` listing
 * (a record per class, numbered lines for the deeper ones) and the full report (nested records
 * by indent, with Salt's special cases for drivers, tags, handles and El Torito).
 */
import { pySplitlines } from '../kernel/util.js';
import { pythonError } from './_py-exception.js';

type Rec = Record<string, unknown>;

/** `hwinfo --short`: one record per "class:" line. */
export function parseHwinfoShort(report: string, warn: (line: string) => void): Rec {
  const result: Rec = {};
  let current: Rec = {};
  let counter = 0;
  for (const line of pySplitlines(report.trim())) {
    if (line.startsWith('    ')) current[counter++] = line.trim();
    else if (line.startsWith('  ')) {
      const s = line.trim();
      const at = s.indexOf(' ');
      if (at < 0) throw pythonError('ValueError', 'not enough values to unpack (expected 2, got 1)');
      current[s.slice(0, at)] = s.slice(at + 1).trim();
    } else if (line.endsWith(':')) {
      current = {};
      result[line.slice(0, -1)] = current;
      counter = 0;
    } else warn(line);
  }
  return result;
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** A value of the full report, converted as Salt converts each kind of key. */
function leafValue(key: string, value: string): unknown {
  if (key === 'Config Status')
    return Object.fromEntries(
      value.split(', ').map((item) => {
        const kv = item.split('=');
        if (kv.length !== 2)
          throw pythonError(
            'ValueError',
            `dictionary update sequence element #0 has length ${kv.length}; 2 is required`,
          );
        return kv;
      }),
    );
  if (key === 'Driver' || key === 'Driver Modules') return value.replaceAll('"', '').split(', ');
  if (key === 'Tags' || key === 'Device Files' || key === 'Features')
    return value.split(',').map((v) => v.trim());
  return value.startsWith('"') ? value.slice(1, -1) : value;
}

/** Python's `str.count("  ")`: non-overlapping double spaces. */
const indentOf = (line: string): number => line.split('  ').length - 1;

/** The full `hwinfo` report: entries by their first line, nested by indent. */
export function parseHwinfoFull(report: string): Rec {
  const result: Rec = {};
  let stack: Rec[] = [];
  const top = (): Rec => {
    const t = stack[stack.length - 1];
    if (!t) throw pythonError('IndexError', 'list index out of range');
    return t;
  };
  for (const raw of pySplitlines(report.trim())) {
    const level = indentOf(raw);
    stack = stack.slice(0, level);
    const line = raw.trim();
    if (!line) continue;
    if (level === 0) {
      const at = line.indexOf(':');
      const rest = line.slice(at + 1).trim();
      const sep = rest.indexOf(': ');
      if (at < 0 || sep < 0)
        throw pythonError('ValueError', 'not enough values to unpack (expected 2, got 1)');
      const sub: Rec = { [rest.slice(0, sep)]: rest.slice(sep + 2) };
      result[line.slice(0, at)] = sub;
      stack.push(sub);
      continue;
    }
    if (line.startsWith('[') || !line.includes(':')) {
      top().Note = line.startsWith('[') ? line.slice(1, -1) : line;
      continue;
    }
    const at = line.indexOf(':');
    let key = line.slice(0, at).trim();
    const value = line.slice(at + 1).trim();
    const sub = top();
    if (value && !value.startsWith('#') && key !== 'El Torito info') {
      let v: unknown = value; // an "I/O Port" is renamed and kept as it is
      if (key === 'I/O Port') key = 'I/O Ports';
      else v = leafValue(key, value);
      if (key in sub) {
        const prev = sub[key];
        const list = Array.isArray(prev) ? prev : [prev];
        if (!list.some((x) => same(x, v))) list.push(v);
        v = list.length === 1 ? list[0] : list;
      }
      sub[key] = v;
    } else {
      let child: Rec;
      if (value.startsWith('#')) child = { Handle: value };
      else if (key === 'El Torito info') {
        const parts = value.split(', ');
        child = {
          platform: (parts[0] ?? '').split(/\s+/).filter(Boolean).pop(),
          bootable: (parts[1] ?? '').includes('not') ? 'no' : 'yes',
        };
      } else child = {};
      sub[key] = child;
      stack.push(child);
    }
  }
  return result;
}
