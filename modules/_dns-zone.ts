/**
 * Salt's `dnsutil.parse_zone` reading of a BIND zone file, step for step: `$` directives, an
 * SOA record (joined over parentheses), NS and A/AAAA records, the first MX only, and any other
 * record type as `{type: {name: value}}`. A line Salt's reading cannot index raises, as Salt's
 * traceback does, here as an error naming the line.
 */
import { SALT_ERR_EXEC_VALUE } from '../kernel/index.js';
import { pySplitlines } from '../kernel/util.js';
import { parsePyInt } from './_py-int.js';
import { pySplit } from './_status-proc.js';

export type Zone = Record<string, unknown>;

const WEEK = 604_800;

/** Salt's `_to_seconds`: `<n>H`, `<n>D`, any `W` a week, plain seconds; at most a week. */
export function toSeconds(text: string): number {
  const t = text.toUpperCase();
  const scaled = (unit: string, factor: number) => {
    const n = parsePyInt(t.replaceAll(unit, ''));
    if (n === undefined) throw new SALT_ERR_EXEC_VALUE(`invalid time value in the zone: ${text}`);
    return n * factor;
  };
  let seconds: number;
  if (t.includes('H')) seconds = scaled('H', 3600);
  else if (t.includes('D')) seconds = scaled('D', 86_400);
  else if (t.includes('W')) seconds = WEEK;
  else seconds = parsePyInt(t) ?? WEEK;
  return Math.min(seconds, WEEK);
}

/** `comps[i]`, or the error Salt's IndexError stands for. */
function at(comps: string[], i: number, line: string): string {
  const v = comps[i];
  if (v === undefined) throw new SALT_ERR_EXEC_VALUE(`cannot read the zone line: ${line.trim()}`);
  return v;
}

function origin(zone: Zone, line: string): string {
  if (!('ORIGIN' in zone)) throw new SALT_ERR_EXEC_VALUE(`no ORIGIN before the zone line: ${line.trim()}`);
  return String(zone.ORIGIN);
}

/** Salt's `parse_zone` over the zone text. */
export function parseZone(text: string): Zone {
  const zone: Zone = {};
  let multi: string | undefined;
  for (const raw of pySplitlines(text)) {
    let line = (raw.split(';')[0] ?? '').trim();
    if (!line) continue;
    let comps = pySplit(line);
    if (line.startsWith('$')) {
      zone[at(comps, 0, line).replaceAll('$', '')] = at(comps, 1, line);
      continue;
    }
    if (line.includes('(') && !line.includes(')')) multi = '';
    if (multi !== undefined) {
      multi += ` ${line}`;
      if (!line.includes(')')) continue;
      line = multi.replaceAll('(', '').replaceAll(')', '');
      multi = undefined;
    }
    comps = 'ORIGIN' in zone ? pySplit(line.replaceAll('@', String(zone.ORIGIN))) : pySplit(line);
    if (line.includes('SOA')) {
      if (at(comps, 1, line) !== 'IN') comps.splice(1, 1);
      zone.ORIGIN = at(comps, 0, line);
      zone.NETWORK = at(comps, 1, line);
      zone.SOURCE = at(comps, 3, line);
      zone.CONTACT = at(comps, 4, line).replace('.', '@');
      zone.SERIAL = at(comps, 5, line);
      zone.REFRESH = toSeconds(at(comps, 6, line));
      zone.RETRY = toSeconds(at(comps, 7, line));
      zone.EXPIRE = toSeconds(at(comps, 8, line));
      zone.MINTTL = toSeconds(at(comps, 9, line));
      continue;
    }
    if (at(comps, 0, line) === 'IN') comps.unshift(origin(zone, line));
    const first = at(comps, 0, line);
    if (!first.endsWith('.') && !line.includes('NS')) comps[0] = `${first}.${origin(zone, line)}`;
    const type = at(comps, 2, line);
    if (type === 'NS') {
      zone.NS = [...((zone.NS as string[] | undefined) ?? []), at(comps, 3, line)];
    } else if (type === 'MX') {
      if (!('MX' in zone)) zone.MX = [{ priority: at(comps, 3, line), host: at(comps, 4, line) }];
    } else {
      const fourth = at(comps, 3, line);
      const [key, value] =
        fourth === 'A' || fourth === 'AAAA'
          ? [fourth, { TARGET: at(comps, 4, line), TTL: at(comps, 1, line) }]
          : [type, fourth];
      const records = (zone[key] ?? {}) as Record<string, unknown>;
      records[at(comps, 0, line)] = value;
      zone[key] = records;
    }
  }
  return zone;
}
