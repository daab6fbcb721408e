/**
 * One state as the highstate outputter prints it (salt/output/highstate.py): the full block
 * (`ID`, `Function`, `Name`, `Result`, `Comment`, `Started`, `Duration`, `Changes`,
 * `Warnings`) or the one terse line (`_format_terse`, plain, `state_tabular: True` aligned,
 * or a custom `state_tabular` format string).
 */
import { float64, pyStr, pyTruthy, pyValue } from '../../kernel/python/index.js';
import type { HighstateContext, StateRet } from './context.js';
import { pyFormat, pyStrip } from './py-format.js';
import { wrapFill } from './textwrap.js';

const INDENT = ' '.repeat(14);

/**
 * The state with its duration as the float Salt always records (`round(ms, 3)`): a JS number
 * cannot tell 5.0 from 5, and Salt prints `5.0`.
 */
function withFloatDuration(ret: StateRet): StateRet {
  return typeof ret.duration === 'number' ? { ...ret, duration: float64(ret.duration) } : ret;
}

function warningsText(ret: StateRet): string {
  const p = pyValue(ret.warnings);
  const items = p.kind === 'list' || p.kind === 'tuple' ? p.value : [];
  return items.map((w) => pyStr(w)).join('\n');
}

/** `_format_terse`: the state's one line. */
export function terseLine(
  ctx: HighstateContext,
  tcolor: string,
  comps: readonly string[],
  ret: StateRet,
): string {
  const c = ctx.colors;
  let result = pyTruthy(ret.changes) ? 'Changed' : 'Clean';
  if (ret.result === false) result = 'Failed';
  else if (ret.result === null || ret.result === undefined) result = 'Differs';
  const profiled = ctx.profile && Object.hasOwn(ret, 'start_time');
  let fmt: string;
  if (ctx.tabular === true) {
    fmt = Object.hasOwn(ret, 'warnings') ? `${c.LIGHT_RED}Warnings:\n${warningsText(ret)}${c.ENDC}\n` : '';
    fmt += '{0}';
    if (profiled) fmt += '{6[start_time]!s} [{6[duration]!s:>7} ms] ';
    fmt += '{2:>10}.{3:<10} {4:7}   Name: {1}{5}';
  } else if (typeof ctx.tabular === 'string') {
    fmt = ctx.tabular;
  } else {
    fmt = Object.hasOwn(ret, 'warnings') ? `${c.LIGHT_RED}Warnings:\n${warningsText(ret)}${c.ENDC}` : '';
    fmt += ' {0} Name: {1} - Function: {2}.{3} - Result: {4}';
    if (profiled) fmt += ' - Started: {6[start_time]!s} - Duration: {6[duration]!s} ms';
    fmt += '{5}';
  }
  return pyFormat(fmt, [tcolor, comps[2], comps[0], comps.at(-1), result, c.ENDC, withFloatDuration(ret)]);
}

/** The comment as the full block shows it: stripped, continuation lines indented. */
function commentText(ret: StateRet): string {
  let comment = pyStrip(pyStr(ret.comment)).replaceAll('\n', `\n${INDENT}`);
  if (Object.hasOwn(ret, 'data')) {
    const p = pyValue(ret.data);
    if (p.kind === 'list') for (const item of p.value) comment = `${comment} ${pyStr(item)}`;
    else if (p.kind === 'dict')
      for (const [k, v] of p.value) comment = `${comment}\n\t\t${pyStr(k)}: ${pyStr(v)}`;
    else comment = `${comment} ${pyStr(ret.data)}`;
  }
  return comment;
}

/** The full block's lines; `ctext` is the changes text (`_format_changes`). */
export function fullLines(
  ctx: HighstateContext,
  tcolor: string,
  comps: readonly string[],
  ret: StateRet,
  ctext: string,
): string[] {
  const end = ctx.colors.ENDC;
  const row = (label: string, value: string): string => `    ${tcolor}${label}: ${value}${end}`;
  const profiled = ctx.profile && Object.hasOwn(ret, 'start_time');
  // Salt writes these into the return as it prints (seen when a later state falls back to nested)
  if (typeof ret.comment !== 'string') ret.comment = pyStr(ret.comment);
  if (!Object.hasOwn(ret, 'start_time')) ret.start_time = '';
  if (!Object.hasOwn(ret, 'duration')) ret.duration = '';
  const d = withFloatDuration(ret).duration;
  if (d !== '') ret.duration = `${pyStr(d)} ms`;
  const lines = [
    `${tcolor}----------${end}`,
    row('      ID', comps[1] ?? ''),
    row('Function', `${comps[0]}.${comps[3] ?? ''}`),
    row('  Result', pyStr(ret.result)),
    row(' Comment', commentText(ret)),
  ];
  if (profiled) lines.push(row(' Started', pyStr(ret.start_time)), row('Duration', pyStr(ret.duration)));
  if (comps[1] !== comps[2]) lines.splice(3, 0, row('    Name', comps[2] ?? ''));
  lines.push(`${tcolor}     Changes:   ${ctext}${end}`);
  if (Object.hasOwn(ret, 'warnings')) {
    const c = ctx.colors;
    const text = wrapFill(warningsText(ret), 80, INDENT, INDENT).trimStart();
    lines.push(`   ${c.LIGHT_RED} Warnings: ${text}${end}`);
  }
  return lines;
}
