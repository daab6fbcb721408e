/**
 * What the bus accepts (`max_event_size`, data that is a map) and what it does with the rest.
 *
 * Policy, applied by the event publisher to every frame whatever its source (the fire API,
 * `_minion_event` through the request server, netapi hooks, raw bodies):
 * - a frame of at most `max_event_size` bytes passes untouched;
 * - a larger one whose data is a map is trimmed as Salt's `dicttrim.trim_dict` does: values
 *   (also inside nested maps) whose packed size is over a share of the limit become
 *   `VALUE_TRIMMED`, the share shrinking by steps until the body fits; it is delivered and a
 *   `tsalt/bus/trimmed` trace event says so;
 * - one that cannot be made to fit (its tag alone is too long, its data is not a map, it
 *   cannot be decoded) is dropped, and a `tsalt/bus/dropped` trace event says why.
 * The fire API and `_minion_event` refuse data that is not a map before it reaches the bus
 * (Salt's `fire_event` raises for it), with the same `tsalt/bus/dropped` event.
 */
import { decodeEventBody, encodeEventBody, packIpc, TAGEND } from '../serial/index.js';

/** Salt's replacement for a trimmed value. */
export const VALUE_TRIMMED = 'VALUE_TRIMMED';
/** The trace event for an event the bus did not deliver. */
export const DROPPED_TAG = 'tsalt/bus/dropped';
/** The trace event for an event delivered with some values trimmed. */
export const TRIMMED_TAG = 'tsalt/bus/trimmed';

export type DropReason =
  | 'too-large'
  | 'tag-too-large'
  | 'not-a-map'
  | 'bad-tag'
  | 'undecodable'
  /** A minion firing into the master's namespaces (`_minion_event`). */
  | 'forbidden-tag';

/** The data of a `tsalt/bus/dropped` / `tsalt/bus/trimmed` trace event. */
export interface GuardTrace {
  /** The event's tag (cut to 256 characters). */
  tag: string;
  /** The event's size in bytes as it reached the bus. */
  size: number;
  max_event_size?: number;
  reason: DropReason;
  /** Who fired it, when known (a minion's id). */
  minion?: string;
  /** For `trimmed`: the size delivered. */
  trimmed_size?: number;
}

export type GuardResult =
  | { action: 'pass' }
  | { action: 'trimmed'; frame: Buffer; trace: GuardTrace }
  | { action: 'dropped'; trace: GuardTrace };

/** A plain object (Salt's `MutableMapping`): not an array, a buffer, a class instance. */
export function isEventMap(data: unknown): data is Record<string, unknown> {
  if (data === null || typeof data !== 'object') return false;
  const proto = Object.getPrototypeOf(data);
  return proto === Object.prototype || proto === null;
}

/** The tag cut for a trace event. */
export function traceTag(tag: string): string {
  return tag.length > 256 ? `${tag.slice(0, 256)}...` : tag;
}

/** Copies the nested maps (leaves are shared: they are replaced, never changed). */
function copyMaps(data: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(data)) out[k] = isEventMap(v) ? copyMaps(v) : v;
  return out;
}

function trimValues(data: Record<string, unknown>, maxValueSize: number): void {
  for (const key of Object.keys(data)) {
    const value = data[key];
    if (isEventMap(value)) trimValues(value, maxValueSize);
    else if (value !== VALUE_TRIMMED && packIpc(value).length > maxValueSize) data[key] = VALUE_TRIMMED;
  }
}

/**
 * Salt's `trim_dict`: replaces values over `percent`% of `max` bytes, then over 10 points
 * less, and so on, until `tag` + data fit in `max` bytes. `undefined` when it never fits.
 */
export function trimEvent(tag: string, data: Record<string, unknown>, max: number): Buffer | undefined {
  const copy = copyMaps(data);
  for (let percent = 50; percent > 0; percent -= 10) {
    trimValues(copy, (max * percent) / 100);
    const body = encodeEventBody(tag, copy);
    if (body.length <= max) return body;
  }
  return undefined;
}

/** Checks one frame against `max` bytes (see the module comment for the policy). */
export function guardFrame(frame: Buffer, max: number): GuardResult {
  if (frame.length <= max) return { action: 'pass' };
  const cut = frame.indexOf(TAGEND);
  const rawTag = frame.subarray(0, cut < 0 ? Math.min(frame.length, 300) : cut).toString('utf8');
  const base = { tag: traceTag(rawTag), size: frame.length, max_event_size: max };
  if (cut < 0) return { action: 'dropped', trace: { ...base, reason: 'undecodable' } };
  if (cut + TAGEND.length >= max) return { action: 'dropped', trace: { ...base, reason: 'tag-too-large' } };
  let data: unknown;
  try {
    data = decodeEventBody(frame).data;
  } catch {
    return { action: 'dropped', trace: { ...base, reason: 'undecodable' } };
  }
  if (!isEventMap(data)) return { action: 'dropped', trace: { ...base, reason: 'not-a-map' } };
  let trimmed: Buffer | undefined;
  try {
    trimmed = trimEvent(rawTag, data, max);
  } catch {
    trimmed = undefined;
  }
  if (!trimmed) return { action: 'dropped', trace: { ...base, reason: 'too-large' } };
  return {
    action: 'trimmed',
    frame: trimmed,
    trace: { ...base, reason: 'too-large', trimmed_size: trimmed.length },
  };
}
