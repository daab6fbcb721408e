/**
 * `state_compress_ids` (salt/output/highstate.py `_compress_ids`): the states of one ID
 * (`names:`) that share an SLS and a result fold into one state keyed
 * `<mod>_|-<id> (<count>)_|-state_compressed_<sls>_<id>_<result>_|-<fun>`, with the lowest
 * run number, the summed duration, the earliest start time and the changes keyed by name.
 */
import { pyStr, pyTruthy } from '../../kernel/python/index.js';
import { isDict, type StateRet } from './context.js';
import { HighstateDataError } from './py-format.js';

function field(info: unknown, key: string): unknown {
  if (!isDict(info) || !Object.hasOwn(info, key)) throw new HighstateDataError(key);
  return info[key];
}

function groupKey(tname: string, info: unknown): string {
  const mod = tname.split('_|-')[0] ?? '';
  return [mod, field(info, '__id__'), field(info, '__sls__'), field(info, 'result')]
    .map((v) => pyStr(v))
    .join('_');
}

function num(v: unknown): number {
  if (typeof v !== 'number') throw new HighstateDataError('unsupported operand');
  return v;
}

function merge(into: StateRet, info: StateRet): void {
  into.__run_num__ = Math.min(num(field(info, '__run_num__')), num(field(into, '__run_num__')));
  const sum = num(field(info, 'duration')) + num(field(into, 'duration'));
  into.duration = Math.round(sum * 1000) / 1000;
  const a = field(info, 'start_time');
  const b = field(into, 'start_time');
  if (typeof a !== 'string' || typeof b !== 'string') throw new HighstateDataError('unorderable start times');
  into.start_time = a < b ? a : b;
  const named = (v: unknown): StateRet => (isDict(v) ? v : {});
  if (pyTruthy(into.changes) && pyTruthy(info.changes)) {
    const ch = named(into.changes);
    if (!pyTruthy(ch['compressed changes'])) {
      into.changes = { 'compressed changes': { [pyStr(field(into, 'name'))]: into.changes } };
    }
    named(named(into.changes)['compressed changes'])[pyStr(field(info, 'name'))] = info.changes;
  } else if (pyTruthy(info.changes)) {
    into.changes = { 'compressed changes': { [pyStr(field(info, 'name'))]: info.changes } };
  }
}

function compressHost(hostdata: unknown): StateRet {
  if (!isDict(hostdata)) throw new HighstateDataError('not a dict');
  const counts = new Map<string, number>();
  for (const [tname, info] of Object.entries(hostdata)) {
    const key = groupKey(tname, info);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const out: StateRet = {};
  for (const [tname, info] of Object.entries(hostdata)) {
    const key = groupKey(tname, info);
    const count = counts.get(key) ?? 1;
    if (count === 1) {
      out[tname] = info;
      continue;
    }
    const ret = info as StateRet;
    const comps = tname.split('_|-');
    comps[2] = ['state_compressed', ret.__sls__, ret.__id__, ret.result].map((v) => pyStr(v)).join('_');
    comps[1] = `${pyStr(ret.__id__)} (${count})`;
    const name = comps.join('_|-');
    const first = out[name];
    if (first === undefined) out[name] = ret;
    else merge(first as StateRet, ret);
  }
  return out;
}

/** The compressed form of `{host: states}`, or `data` itself when it cannot be compressed. */
export function compressIds(data: unknown): unknown {
  if (!isDict(data)) return data;
  try {
    const out: StateRet = {};
    for (const [host, hostdata] of Object.entries(data)) out[host] = compressHost(hostdata);
    return out;
  } catch (e) {
    if (!(e instanceof HighstateDataError)) throw e;
    process.stderr.write('[WARNING ] Unable to compress state output by ID! Returning output normally.\n');
    return data;
  }
}
