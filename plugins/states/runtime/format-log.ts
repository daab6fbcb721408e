/**
 * Salt's `format_log`: after each state, one log line about its result, at info when it
 * succeeded (or would, under test) and at error when it failed. salt-call shows the error ones
 * on stderr (`[ERROR   ] Specified path /x does not exist`).
 *
 * A deliberate difference: Salt also logs a file diff or the raw changes; those can hold pillar
 * secrets, so tsalt logs neither (a state's changes reach the user in its return, not the log).
 */

import type { UnitLogger } from '../../../kernel/loader/define.js';
import { pyStr } from '../../../kernel/util.js';
import type { Entry } from './run-state.js';

const isMap = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Python's `not x and x not in (False, None)`: an empty string, list or mapping. */
const absentLike = (v: unknown) =>
  v === '' || (Array.isArray(v) && v.length === 0) || (isMap(v) && Object.keys(v).length === 0);

/** The line Salt logs for a state's return, or undefined where tsalt keeps it out of the log. */
export function stateLogLine(ret: Entry): string | undefined {
  const changes = ret.changes;
  const empty = !isMap(changes) || Object.keys(changes).length === 0;
  if (empty) {
    if (ret.comment !== undefined && ret.comment !== '' && ret.comment !== null)
      return typeof ret.comment === 'string' ? ret.comment : pyStr(ret.comment);
    return `No changes made for ${pyStr(ret.name)}`;
  }
  const values = Object.values(changes);
  if (!values.every((c) => isMap(c) && 'old' in c && 'new' in c)) return undefined;
  let msg = 'Made the following changes:\n';
  for (const [key, c] of Object.entries(changes as Record<string, { old: unknown; new: unknown }>)) {
    const old = absentLike(c.old) ? 'absent' : pyStr(c.old);
    const now = absentLike(c.new) ? 'absent' : pyStr(c.new);
    msg += `'${key}' changed from '${old}' to '${now}'\n`;
  }
  return msg;
}

/** Logs a state's return as Salt's `format_log` does (see the file's note on what is left out). */
export function formatLog(ret: Entry, log: UnitLogger): void {
  const line = stateLogLine(ret);
  if (line === undefined) return;
  if (ret.result === true || ret.result === null) log.info(line);
  else log.error(line);
}
