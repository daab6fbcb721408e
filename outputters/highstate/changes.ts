/**
 * A state's `Changes:` text (salt/output/highstate.py `_format_changes`): nothing for no
 * changes, the minions' highstates for a `salt.state`-style return (`out: highstate` with a
 * `ret` per minion), else the changes through the nested outputter, 14 columns in.
 */
import { pySplitlines, pyStr, pyTruthy } from '../../kernel/python/index.js';
import { renderNested } from '../nested.js';
import { type HighstateContext, isDict } from './context.js';
import { HighstateDataError } from './py-format.js';

const INDENT = ' '.repeat(14);

/** Formats one host's return: its text and whether anything changed (`_format_host`). */
export type HostFormatter = (host: string, data: unknown) => [string, boolean];

/** The nested outputter's text for `changes`, as `nested_indent=14` prints it (rstripped). */
export function nestedAt14(ctx: HighstateContext, changes: unknown): string {
  return renderNested(changes, { ...ctx.opts, retcode: 0 }, 14);
}

/** `[changed, text]` for a state's changes; the text starts with a newline when not empty. */
export function formatChanges(
  ctx: HighstateContext,
  changes: unknown,
  formatHost: HostFormatter,
): [boolean, string] {
  if (!pyTruthy(changes)) return [false, ''];
  if (!isDict(changes)) return [true, `Invalid Changes data: ${pyStr(changes)}`];
  const ret = changes.ret;
  if (ret !== null && ret !== undefined && changes.out === 'highstate') {
    if (!isDict(ret)) throw new HighstateDataError("'ret' has no items()");
    let text = '';
    let changed = false;
    for (const [host, hostdata] of Object.entries(ret)) {
      const [s, c] = formatHost(host, hostdata);
      text += `\n${pySplitlines(s)
        .map((l) => INDENT + l)
        .join('\n')}`;
      changed = changed || c;
    }
    return [changed, text];
  }
  return [true, `\n${nestedAt14(ctx, changes)}`];
}
