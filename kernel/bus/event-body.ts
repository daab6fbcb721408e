/**
 * Encoding an event for a bus without opening a socket (worker threads hand bodies to the
 * thread that owns the socket).
 */
import { encodeEventBody } from '../serial/index.js';

/** The current millisecond's stamp: a burst of events (a return each) formats the time once. */
let lastMs = Number.NaN;
let lastStamp = '';

/** Salt's `_stamp`: UTC ISO-8601 with microseconds, no zone suffix (now, unless `date` is given). */
export function eventStamp(date?: Date): string {
  const ms = date ? date.getTime() : Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    lastStamp = `${new Date(ms).toISOString().slice(0, 23)}000`;
  }
  return lastStamp;
}

/** Tag + `\n\n` + msgpack(data with `_stamp`). */
export function stampedEventBody(tag: string, data: Record<string, unknown>): Buffer {
  return encodeEventBody(tag, { ...data, _stamp: eventStamp() });
}
