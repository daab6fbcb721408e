/**
 * The reader of `udevadm info` output Salt's `udev` module uses: one record per blank-line
 * separated block, each `X: value` line under its letter; `E:` lines become a map of udev
 * properties whose numbers are read as Python's int() then float() would, and a letter with
 * one value holds that value, not a list.
 */
import { pySplitlines } from '../kernel/util.js';
import { pythonError } from './_py-exception.js';

/** One device's udev record: `E` the properties, other letters a value or a list of them. */
export type UdevRecord = Record<string, unknown>;

const PY_INT = /^\s*[+-]?\d+(?:_\d+)*\s*$/;
const DIGITS = String.raw`\d+(?:_\d+)*`;
const PY_FLOAT = new RegExp(
  String.raw`^\s*[+-]?(?:(?:${DIGITS}(?:\.(?:${DIGITS})?)?|\.${DIGITS})(?:[eE][+-]?${DIGITS})?|inf(?:inity)?|nan)\s*$`,
  'i',
);

/** A property value as Salt stores it: an int, else a float, else the text. */
export function udevValue(text: string): unknown {
  if (PY_INT.test(text)) {
    const n = Number(text.replace(/_/g, ''));
    return Number.isSafeInteger(n) ? n : text;
  }
  if (PY_FLOAT.test(text)) {
    const t = text.trim().toLowerCase().replace(/_/g, '');
    if (/^[+-]?nan$/.test(t)) return Number.NaN;
    if (/^[+-]?inf/.test(t)) return t.startsWith('-') ? -Infinity : Infinity;
    return Number(t);
  }
  return text;
}

/** Salt's `_normalize_info`: a one-item list becomes its item; a one-entry property map fails. */
function normalize(dev: UdevRecord): UdevRecord {
  for (const [sect, val] of Object.entries(dev)) {
    if (Array.isArray(val) || typeof val === 'string') {
      if (val.length === 1) dev[sect] = val[0];
    } else if (val && typeof val === 'object' && Object.keys(val).length === 1) {
      // Salt indexes the dict with 0.
      throw pythonError('KeyError', '0');
    }
  }
  return dev;
}

/** The records of `udevadm info --export --query=all` or `--export-db` output. */
export function parseUdevadmInfo(out: string): UdevRecord[] {
  const devices: UdevRecord[] = [];
  let dev: UdevRecord = {};
  for (const raw of pySplitlines(out)) {
    const line = raw.trim();
    if (!line) {
      if (Object.keys(dev).length) devices.push(normalize(dev));
      dev = {};
      continue;
    }
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const query = line.slice(0, colon);
    const data = line.slice(colon + 1).trim();
    if (query === 'E') {
      const eq = data.indexOf('=');
      if (eq < 0) throw pythonError('ValueError', 'not enough values to unpack (expected 2, got 1)');
      dev.E ??= {};
      const env = dev.E as Record<string, unknown>;
      env[data.slice(0, eq)] = udevValue(data.slice(eq + 1));
    } else {
      dev[query] ??= [];
      (dev[query] as string[]).push(data);
    }
  }
  if (Object.keys(dev).length) devices.push(normalize(normalize(dev)));
  return devices;
}
