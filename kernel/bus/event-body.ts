/**
 * Encoding an event for a bus without opening a socket (worker threads hand bodies to the
 * thread that owns the socket).
 */
import { encodeEventBody } from '../serial/index.js';

/** Salt's `_stamp`: UTC ISO-8601 with microseconds, no zone suffix. */
export function eventStamp(date = new Date()): string {
  return `${date.toISOString().slice(0, 23)}000`;
}

/** Tag + `\n\n` + msgpack(data with `_stamp`). */
export function stampedEventBody(tag: string, data: Record<string, unknown>): Buffer {
  return encodeEventBody(tag, { ...data, _stamp: eventStamp() });
}
