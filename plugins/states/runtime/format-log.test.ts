import { describe, expect, it } from 'vitest';
import { formatLog, stateLogLine } from './format-log.js';

describe("a state's log line (Salt's format_log)", () => {
  it('the comment, or "No changes made" without one', () => {
    expect(stateLogLine({ result: false, changes: {}, comment: 'Specified path /x does not exist' })).toBe(
      'Specified path /x does not exist',
    );
    expect(stateLogLine({ result: true, changes: {}, comment: '', name: 'n1' })).toBe(
      'No changes made for n1',
    );
  });

  it('old/new changes one line each, empty values as absent (False and None kept)', () => {
    const line = stateLogLine({
      result: true,
      changes: { vim: { old: '', new: '9.0' }, a: { old: false, new: [] }, b: { old: null, new: { k: 1 } } },
    });
    expect(line).toBe(
      "Made the following changes:\n'vim' changed from 'absent' to '9.0'\n'a' changed from 'False' to 'absent'\n'b' changed from 'None' to '{'k': 1}'\n",
    );
  });

  it('keeps a diff and raw changes out of the log (they can hold secrets)', () => {
    expect(stateLogLine({ result: false, changes: { diff: '+password: hunter2' } })).toBeUndefined();
    expect(stateLogLine({ result: true, changes: { retcode: 0, stdout: 'secret' } })).toBeUndefined();
  });

  it('info for a success or a test prediction, error for a failure', () => {
    const seen: string[] = [];
    const log = {
      trace: () => undefined,
      debug: () => undefined,
      info: (m: unknown) => seen.push(`info ${String(m)}`),
      warn: () => undefined,
      error: (m: unknown) => seen.push(`error ${String(m)}`),
    };
    formatLog({ result: true, changes: {}, comment: 'ok' }, log);
    formatLog({ result: null, changes: {}, comment: 'would' }, log);
    formatLog({ result: false, changes: {}, comment: 'bad' }, log);
    expect(seen).toEqual(['info ok', 'info would', 'error bad']);
  });
});
