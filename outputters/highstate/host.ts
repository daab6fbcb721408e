/**
 * The highstate outputter's walk (salt/output/highstate.py `output` and `_format_host`):
 * unwraps job and orchestrate envelopes, then prints each host: its states in `__run_num__`
 * order (full, terse or hidden as the options say), a text or number return as is, a list
 * as "Data failed to compile:", then the summary. Orchestrations recurse into the minions'
 * returns.
 */
import { pySplitlines, pyStr, pyTruthy, pyValue } from '../../kernel/python/index.js';
import { pyPformat } from '../py-pformat.js';
import { formatChanges } from './changes.js';
import { compressIds } from './compress-ids.js';
import { type HighstateContext, isDict, type StateRet } from './context.js';
import { HighstateDataError, pyFloat } from './py-format.js';
import { fullLines, terseLine } from './state-block.js';
import { type HostTally, summaryLines } from './summary.js';

const ORCH_NAMES = new Set(['state.orch', 'state.orchestrate', 'state.sls']);
const MISSING_RUN_NUM =
  'The State execution failed to record the order in which all states were executed. The state return missing data is:';

/** Text Salt returns unprinted (an int or a str) or the rendered hosts. */
export type Rendered = { text: string } | { raw: unknown };

function unwrap(input: unknown): unknown {
  let data = input;
  if (isDict(data) && Object.hasOwn(data, 'return')) data = data.return;
  if (isDict(data) && Object.hasOwn(data, 'data')) data = data.data;
  if (isDict(data)) {
    const keys = Object.keys(data);
    const only = keys.length === 1 ? data[keys[0] as string] : undefined;
    if (isDict(only) && Object.hasOwn(only, 'jid') && Object.hasOwn(only, 'fun')) {
      const ret = Object.hasOwn(only, 'return') ? only.return : {};
      if (!isDict(ret)) throw new HighstateDataError("'return' has no get()");
      if (Object.hasOwn(ret, 'data')) data = ret.data;
    }
  }
  return data;
}

/** Salt's `output(data, indent_level)`: the hosts' text, or the value it hands back as is. */
export function renderHosts(ctx: HighstateContext, input: unknown, indentLevel: number): Rendered {
  let data = unwrap(input);
  const kind = pyValue(data).kind;
  if (kind === 'int' || kind === 'bool' || kind === 'str') return { raw: data };
  if (kind === 'none') return { text: 'None' };
  if (!isDict(data)) throw new HighstateDataError('not a dict');
  const masters = Object.keys(data).filter((k) => k.endsWith('_master'));
  if (Object.hasOwn(data, 'retcode') && masters.length === 1) {
    delete data.retcode;
  }
  if (ctx.compressIds) data = compressIds(data);
  const hosts = Object.entries(data as StateRet).map(([h, d]) => formatHost(ctx, h, d, indentLevel)[0]);
  return { text: hosts.join('\n') };
}

function durationOf(ret: StateRet): number | undefined {
  const raw = Object.hasOwn(ret, 'duration') ? ret.duration : 0;
  const direct = pyFloat(raw);
  if (direct !== undefined) return direct;
  const ms = pyStr(raw).split(' ms')[0] as string;
  return pyFloat(ms);
}

function stripEsc(ctx: HighstateContext, text: string): string {
  return ctx.stripColors ? text.replaceAll('\x1b', '?') : text;
}

function errorLines(ctx: HighstateContext, errors: readonly unknown[], hcolor: string): string[] {
  const end = ctx.colors.ENDC;
  const out = [`    ${hcolor}Data failed to compile:${end}`];
  for (const err of errors) {
    const text = typeof err === 'string' ? stripEsc(ctx, err) : pyStr(err);
    out.push(`${hcolor}----------\n    ${text}${end}`);
  }
  return out;
}

function filterSets(v: string | readonly string[] | null): readonly string[] {
  if (v === null) throw new HighstateDataError("argument of type 'NoneType' is not iterable");
  return typeof v === 'string' ? v.split(',') : v;
}

/** Salt's `_format_host`: the host's text and whether any of its states changed something. */
export function formatHost(
  ctx: HighstateContext,
  host: string,
  data: unknown,
  indentLevel = 1,
): [string, boolean] {
  const c = ctx.colors;
  let hcolor = c.GREEN;
  const hstrs: string[] = [];
  const tally: HostTally = { counts: new Map(), nchanges: 0, durations: [], parallel: [] };
  const p = pyValue(data);
  if (p.kind === 'int' || p.kind === 'bool') {
    tally.nchanges = 1;
    hstrs.push(`${hcolor}    ${pyStr(data)}${c.ENDC}`);
    hcolor = c.CYAN;
  } else if (p.kind === 'str') {
    tally.nchanges = 1;
    for (const line of pySplitlines(p.value)) hstrs.push(`${hcolor}    ${line}${c.ENDC}`);
    hcolor = c.CYAN;
  } else if (p.kind === 'list') {
    hcolor = c.LIGHT_RED;
    hstrs.push(...errorLines(ctx, p.value, hcolor));
  } else if (isDict(data)) {
    formatStates(ctx, data, indentLevel, hstrs, tally, (col) => {
      hcolor = col;
    });
    hstrs.push(...summaryLines(ctx, host, tally));
  }
  hstrs.unshift(`${hcolor}${stripEsc(ctx, host)}:${c.ENDC}`);
  return [hstrs.join('\n'), tally.nchanges > 0];
}

function formatStates(
  ctx: HighstateContext,
  input: StateRet,
  indentLevel: number,
  hstrs: string[],
  tally: HostTally,
  setHostColor: (color: string) => void,
): void {
  const c = ctx.colors;
  const data: Array<[string, StateRet]> = [];
  for (const [tname, info] of Object.entries(input)) {
    if (isDict(info) && tname !== 'changes' && pyTruthy(info) && !Object.hasOwn(info, '__run_num__')) {
      hstrs.unshift(MISSING_RUN_NUM, pyPformat(info));
    }
    if (isDict(info) && Object.hasOwn(info, 'result')) data.push([tname, info]);
  }
  const runNum = (ret: StateRet): number => {
    const n = Object.hasOwn(ret, '__run_num__') ? ret.__run_num__ : 0;
    return typeof n === 'number' ? n : Number(n);
  };
  data.sort((a, b) => runNum(a[1]) - runNum(b[1]));
  const formatNested = (h: string, d: unknown): [string, boolean] => formatHost(ctx, h, d);
  for (const [tname, ret] of data) {
    const resultKey = pyStr(ret.result);
    let count = 1;
    if (ctx.compressIds && tname.includes('_|-state_compressed_')) {
      const m = /\((\d+)\)$/.exec(tname.split('_|-')[1] ?? '');
      if (m) count = Number(m[1]);
    }
    tally.counts.set(resultKey, (tally.counts.get(resultKey) ?? 0) + count);
    const duration = durationOf(ret);
    if (duration !== undefined)
      (Object.hasOwn(ret, '__parallel__') ? tally.parallel : tally.durations).push(duration);

    if (!Object.hasOwn(ret, 'changes')) throw new HighstateDataError("KeyError: 'changes'");
    let tcolor = c.GREEN;
    let schanged: boolean;
    let ctext: string;
    if (typeof ret.name === 'string' && ORCH_NAMES.has(ret.name)) {
      const nested = renderHosts(ctx, ret.changes, indentLevel + 1);
      if ('raw' in nested && typeof nested.raw !== 'string') throw new HighstateDataError('not a str');
      const text = 'text' in nested ? nested.text : String(nested.raw);
      const pad = ' '.repeat(14 * indentLevel);
      ctext = `\n${text}`
        .split('\n')
        .map((l) => pad + l)
        .join('\n');
      schanged = true;
      tally.nchanges += 1;
    } else {
      [schanged, ctext] = formatChanges(ctx, ret.changes, formatNested);
      if (schanged && count > 1) {
        const ch = isDict(ret.changes) ? ret.changes['compressed changes'] : undefined;
        tally.nchanges += (isDict(ch) ? Object.keys(ch).length : 0) || 1;
      } else if (schanged) tally.nchanges += 1;
    }

    const ok = pyTruthy(ret.result);
    if (ctx.diff && ok && !schanged) continue;
    if (!ctx.verbose && ok && !schanged) continue;
    if (schanged) tcolor = c.CYAN;
    if (ret.result === false) {
      setHostColor(c.RED);
      tcolor = c.RED;
    }
    if (ret.result === null || ret.result === undefined) {
      setHostColor(c.LIGHT_YELLOW);
      tcolor = c.LIGHT_YELLOW;
    }
    const out = ctx.stateOutput;
    const comps = tname.split('_|-');
    if (out.endsWith('_id')) comps[2] = comps[1] as string;
    if (out.startsWith('filter')) {
      if (filterSets(ctx.terse).includes(resultKey)) {
        hstrs.push(terseLine(ctx, tcolor, comps, ret));
        continue;
      }
      if (filterSets(ctx.exclude).includes(resultKey)) continue;
    } else if (
      out.startsWith('terse') ||
      (out.startsWith('mixed') && ret.result !== false) ||
      (out.startsWith('changes') && ok && !schanged)
    ) {
      hstrs.push(terseLine(ctx, tcolor, comps, ret));
      continue;
    }
    if (!Object.hasOwn(ret, 'comment')) throw new HighstateDataError("KeyError: 'comment'");
    hstrs.push(...fullLines(ctx, tcolor, comps, ret, ctext));
    if (Object.hasOwn(ret, 'warnings')) tally.counts.set('warnings', (tally.counts.get('warnings') ?? 0) + 1);
  }
}
