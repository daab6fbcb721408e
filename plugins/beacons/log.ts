/**
 * The `log` beacon (Salt's `salt/beacons/log_beacon.py`): tails `file`; each line added since
 * the last run that one of `tags`' regexes matches from its start fires
 * `{tag, match: "yes", raw: <line>, error: ""}` (the tag appended to the event's). The first run
 * only notes where the file ends.
 *
 *   beacons:
 *     log:
 *       - file: /var/log/auth.log
 *       - tags:
 *           sshd: { regex: '.*sshd.*' }
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { defineBeacon } from '../../kernel/index.js';

// where Python's str.splitlines() splits (its file separators 0x1c-0x1e included)
const LINE_BREAKS = new RegExp(`\r\n|[\n\r\v\f\x85\u2028\u2029${String.fromCharCode(0x1c, 0x1d, 0x1e)}]`);

interface LogEvent {
  tag: string;
  match: string;
  raw: string;
  error: string;
  [key: string]: unknown;
}

function event(tag: string, over: Partial<LogEvent>): LogEvent {
  return { tag, match: 'no', raw: '', error: '', ...over };
}

/** The text between byte `from` and the end of the file, and where it ends. */
function readFrom(file: string, from: number): { text: string; end: number } {
  const fd = openSync(file, 'r');
  try {
    const end = fstatSync(fd).size;
    const buf = Buffer.alloc(Math.max(0, end - from));
    let got = 0;
    while (got < buf.length) {
      const n = readSync(fd, buf, got, buf.length - got, from + got);
      if (n === 0) break;
      got += n;
    }
    return { text: buf.subarray(0, got).toString('utf8'), end };
  } finally {
    closeSync(fd);
  }
}

function compileTags(tags: unknown, ret: LogEvent[]): Map<string, RegExp> {
  const out = new Map<string, RegExp>();
  const entries = typeof tags === 'object' && tags !== null ? Object.entries(tags) : [];
  for (const [tag, spec] of entries) {
    const regex = (spec as Record<string, unknown> | null)?.regex;
    if (!regex) continue;
    try {
      out.set(tag, new RegExp(`^(?:${String(regex)})`));
    } catch {
      ret.push(event(tag, { error: 'bad regex' }));
    }
  }
  return out;
}

export default defineBeacon({
  name: 'log',
  doc: 'Emit the lines added to a file that match the configured regexes.',
  validate(config) {
    return 'file' in config ? true : 'Configuration for log beacon must contain file option.';
  },
  beacon(ctx, config) {
    if (!('file' in config)) return [event('global', { error: 'file not defined in config' })];
    const loc = (ctx.state.get('loc') as number | undefined) ?? 0;
    const { text, end } = readFrom(String(config.file), loc === 0 ? Number.MAX_SAFE_INTEGER : loc);
    ctx.state.set('loc', end);
    if (loc === 0) return [];
    const ret: LogEvent[] = [];
    const regs = compileTags(config.tags, ret);
    const lines = text.split(LINE_BREAKS);
    if (lines[lines.length - 1] === '') lines.pop();
    for (const line of lines) {
      for (const [tag, re] of regs) if (re.test(line)) ret.push(event(tag, { raw: line, match: 'yes' }));
    }
    return ret;
  },
});
