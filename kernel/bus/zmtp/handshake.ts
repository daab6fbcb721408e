/**
 * The ZMTP 3.0 greeting and the NULL mechanism's READY command (RFC 23/ZMTP, RFC 37/ZMTP for
 * 3.1 peers). We greet as 3.0: a libzmq 4.x peer then speaks 3.0 to us, so subscriptions
 * arrive as plain messages (0x01 + topic) and no heartbeats are sent unasked.
 */
import { SALT_ERR_BUS_ZMTP } from '../../errors.js';
import { encodeCommand } from './frame.js';

export const GREETING_BYTES = 64;

/** Our greeting: signature (0xFF, padding, 0x7F), version 3.0, mechanism NULL, as-server 0, filler. */
export function greeting(): Buffer {
  const g = Buffer.alloc(GREETING_BYTES);
  g[0] = 0xff;
  g[8] = 0x01; // padding: libzmq writes the ZMTP 1.0 identity length + 1 here; any value is valid
  g[9] = 0x7f;
  g[10] = 3;
  g[11] = 0;
  g.write('NULL', 12, 'latin1');
  return g;
}

/**
 * Checks a peer's 64-byte greeting: ZMTP 3.x with the NULL mechanism. Throws `SALT_ERR_BUS_ZMTP`
 * otherwise (a ZMTP 1.0/2.0 peer, CURVE or PLAIN, or not ZMTP at all).
 */
export function checkGreeting(g: Buffer): void {
  if (g.length < GREETING_BYTES || g[0] !== 0xff || ((g[9] as number) & 0x01) !== 0x01)
    throw new SALT_ERR_BUS_ZMTP('not a ZMTP 3 greeting');
  if ((g[10] as number) < 3) throw new SALT_ERR_BUS_ZMTP(`ZMTP version ${g[10]} is not supported`);
  const mechanism = g.toString('latin1', 12, 32).replace(/\0+$/, '');
  if (mechanism !== 'NULL') throw new SALT_ERR_BUS_ZMTP(`security mechanism ${mechanism} is not supported`);
}

/** READY with the given metadata (`Socket-Type` and the like). */
export function readyCommand(properties: Readonly<Record<string, string>>): Buffer {
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(properties)) {
    const nameBytes = Buffer.from(name, 'latin1');
    const valueBytes = Buffer.from(value, 'utf8');
    const size = Buffer.allocUnsafe(4);
    size.writeUInt32BE(valueBytes.length, 0);
    parts.push(Buffer.from([nameBytes.length]), nameBytes, size, valueBytes);
  }
  return encodeCommand('READY', Buffer.concat(parts));
}

/** The metadata of a READY command's data; property names are case-insensitive (lower-cased here). */
export function parseMetadata(data: Buffer): Map<string, string> {
  const out = new Map<string, string>();
  let at = 0;
  while (at < data.length) {
    const nameLength = data[at] as number;
    const valueAt = at + 1 + nameLength + 4;
    if (nameLength === 0 || valueAt > data.length) throw new SALT_ERR_BUS_ZMTP('malformed READY metadata');
    const name = data.toString('latin1', at + 1, at + 1 + nameLength).toLowerCase();
    const valueLength = data.readUInt32BE(at + 1 + nameLength);
    if (valueAt + valueLength > data.length) throw new SALT_ERR_BUS_ZMTP('malformed READY metadata');
    out.set(name, data.toString('utf8', valueAt, valueAt + valueLength));
    at = valueAt + valueLength;
  }
  return out;
}
