/**
 * The `stateful` reading of a command's output for the `cmd` states (Salt's
 * `_reinterpreted_state` in `salt/states/cmd.py`): a script that prints a JSON object, or a last
 * line of `name=value` pairs, says itself whether it changed something (`changed=yes`) and what
 * to comment (`comment="..."`).
 */

import { shlexSplit } from '../modules/_shlex.js';
import type { StateReturn } from '../plugins/states/index.js';

function isTrue(val: unknown): boolean {
  const s = String(val).toLowerCase();
  if (val && ['true', 'yes', '1'].includes(s)) return true;
  if (['false', 'no', '0'].includes(s)) return false;
  throw new Error(`Failed parsing boolean value: ${String(val)}`);
}

function failout(state: StateReturn, msg: string): StateReturn {
  state.comment = msg;
  state.result = false;
  return state;
}

/** Rewrites a command state's return from the command's own report in its stdout. */
export function reinterpretedState(state: StateReturn): StateReturn {
  const ret = state.changes as Record<string, unknown>;
  state.changes = {};
  state.comment = '';
  const out = typeof ret.stdout === 'string' ? ret.stdout : '';
  if (!out) {
    if (ret.stderr) state.comment = String(ret.stderr);
    return state;
  }
  let data: Record<string, unknown>;
  let isJson = false;
  let idx = -1;
  try {
    const parsed: unknown = JSON.parse(out);
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
      return failout(state, 'script JSON output must be a JSON object (e.g., {})!');
    data = parsed as Record<string, unknown>;
    isJson = true;
  } catch {
    idx = out.trimEnd().lastIndexOf('\n');
    const last = idx === -1 ? out : out.slice(idx + 1);
    data = {};
    try {
      for (const item of shlexSplit(last)) {
        const parts = item.split('=');
        if (parts.length !== 2) throw new Error('not name=value');
        data[parts[0] as string] = parts[1];
      }
    } catch {
      failout(state, 'Failed parsing script output! Stdout must be JSON or a line of name=value pairs.');
      state.changes = { ...ret };
      return state;
    }
  }
  const changed = isTrue(data.changed ?? 'no');
  if ('comment' in data) {
    state.comment = String(data.comment);
    delete data.comment;
  }
  if (changed) {
    for (const [k, v] of Object.entries(ret)) if (!(k in data)) data[k] = v;
    // Python's [:-1] when no newline was found: the last character goes
    data.stdout = isJson ? '' : String(data.stdout ?? '').slice(0, idx);
    state.changes = data;
  }
  return state;
}
