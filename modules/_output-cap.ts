/**
 * The cap on what `cmd.*` keeps of a command's output (the minion's `max_cmd_output_size`,
 * default 64 MiB per stream: Salt keeps everything, and a Node string cannot hold more than
 * ~512 MiB). Output past the cap is dropped, but never silently: the text kept ends with a
 * `VALUE_TRIMMED` marker, in the spirit of the `VALUE_TRIMMED` Salt puts in place of a value
 * too big for an event (`salt/utils/dicttrim.py`), and the returns that are dicts get a
 * `warnings` entry saying the same.
 */
import { OUTPUT_CAP_BYTES } from './_spawn.js';

/** The minion's cap in bytes per stream (`max_cmd_output_size`). */
export function outputCap(opts: Readonly<Record<string, unknown>>): number {
  const cap = opts.max_cmd_output_size;
  return typeof cap === 'number' && Number.isInteger(cap) && cap > 0 ? cap : OUTPUT_CAP_BYTES;
}

/** What replaces the dropped part of one stream: a line of its own after the text kept. */
export function trimmedNotice(stream: 'stdout' | 'stderr', cap: number, dropped: number): string {
  return `VALUE_TRIMMED: the command's ${stream} went over max_cmd_output_size (${cap} bytes); the last ${dropped} bytes were dropped`;
}

/** `text` (the kept part) with the notice appended on its own line. */
export function withTrimmedMarker(text: string, notice: string): string {
  return text === '' || text.endsWith('\n') ? `${text}${notice}` : `${text}\n${notice}`;
}
