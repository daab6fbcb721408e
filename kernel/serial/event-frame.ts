/**
 * Salt's local event-bus framing: the event body (`SaltEvent.fire_event` / `SaltEvent.unpack`)
 * and the IPC message around it (`salt.transport.frame.frame_msg_ipc`).
 */
import { isUtf8 } from 'node:buffer';
import { SALT_ERR_BUS_DECODE, SALT_ERR_BUS_ENCODE } from '../errors.js';
import { unpackIpc } from './decoder.js';
import { packIpc } from './encoder.js';

/** Salt's `TAGEND`: the separator between an event tag and its msgpack data. */
export const TAGEND: Buffer = Buffer.from('\n\n', 'latin1');

/** A decoded event body. */
export interface EventBody {
  tag: string;
  data: unknown;
}

/** A decoded IPC message (`{head, body}`). The event publisher's `body` is a `Buffer`. */
export interface IpcMessage {
  head: unknown;
  body: unknown;
}

/**
 * An event body as `SaltEvent.fire_event` writes it: tag (UTF-8) + `\n\n` +
 * `packIpc(data)`. (Salt also adds `_stamp`; callers put it in `data` themselves.)
 * Throws `SALT_ERR_BUS_ENCODE` for an empty tag or one containing `\n\n`.
 */
export function encodeEventBody(tag: string, data: Record<string, unknown>): Buffer {
  if (tag === '') throw new SALT_ERR_BUS_ENCODE('an event with an empty tag');
  if (tag.includes('\n\n'))
    throw new SALT_ERR_BUS_ENCODE(`event tag ${JSON.stringify(tag)}: it contains "\\n\\n"`);
  return Buffer.concat([Buffer.from(tag, 'utf8'), TAGEND, packIpc(data)]);
}

/**
 * `SaltEvent.unpack`: split at the first `\n\n`; the tag must be UTF-8 and the rest is read
 * with {@link unpackIpc}. Throws `SALT_ERR_BUS_DECODE` when there is no separator.
 */
export function decodeEventBody(buf: Uint8Array): EventBody {
  const b = Buffer.isBuffer(buf) ? buf : Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  const cut = b.indexOf(TAGEND);
  if (cut < 0) throw new SALT_ERR_BUS_DECODE('event body: no "\\n\\n" after the tag');
  const tagBytes = b.subarray(0, cut);
  if (!isUtf8(tagBytes)) throw new SALT_ERR_BUS_DECODE('event body: the tag is not valid UTF-8');
  const data = unpackIpc(b.subarray(cut + TAGEND.length), { exactFloats: true });
  return { tag: tagBytes.toString('utf8'), data };
}

/**
 * One message of Salt's IPC stream (`frame_msg_ipc`): `packIpc({head, body})`, `head`
 * defaulting to `{}`. Messages are written back to back with no length prefix.
 */
export function encodeIpcMessage(body: unknown, head: Record<string, unknown> = {}): Buffer {
  return packIpc({ head, body });
}

/**
 * Reads one IPC message (see {@link encodeIpcMessage}). Throws `SALT_ERR_BUS_DECODE` unless
 * the buffer holds exactly one msgpack map with a `body` key.
 */
export function decodeIpcMessage(buf: Uint8Array): IpcMessage {
  return toIpcMessage(unpackIpc(buf));
}

/** Checks that a decoded value is a `{head, body}` frame. */
export function toIpcMessage(value: unknown): IpcMessage {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || value instanceof Uint8Array) {
    throw new SALT_ERR_BUS_DECODE('IPC message: not a map');
  }
  const get = (key: string): unknown =>
    value instanceof Map ? value.get(key) : (value as Record<string, unknown>)[key];
  const has = value instanceof Map ? value.has('body') : Object.hasOwn(value, 'body');
  if (!has) throw new SALT_ERR_BUS_DECODE('IPC message: no "body"');
  return { head: get('head') ?? {}, body: get('body') };
}
