/**
 * Encoding an event for a bus without opening a socket (worker threads hand bodies to the
 * thread that owns the socket).
 */
import { encodeEventBody } from '../serial/index.js';

/** The current millisecond's stamp: a burst of events (a return each) formats the time once. */
let lastMs = Number.NaN;
let lastStamp = '';

function formatStamp(date: Date): string {
  return `${date.toISOString().slice(0, 23)}000`;
}

/** Salt's `_stamp`: UTC ISO-8601 with microseconds, no zone suffix (now, unless `date` is given). */
export function eventStamp(date?: Date): string {
  if (date) return formatStamp(date);
  const now = Date.now();
  if (now !== lastMs) {
    lastMs = now;
    lastStamp = formatStamp(new Date(now));
  }
  return lastStamp;
}

/** Tag + `\n\n` + msgpack(data with `_stamp`). */
export function stampedEventBody(tag: string, data: Record<string, unknown>): Buffer {
  return encodeEventBody(tag, { ...data, _stamp: eventStamp() });
}
