/**
 * The bytes of a decoded msgpack value that was sent as bytes. Salt's network form sends bytes
 * as msgpack str, and decoding turns those that happen to be valid UTF-8 into text; UTF-8
 * round-trips, so the text gives the original bytes back.
 */
export function asBytes(v: unknown): Buffer | undefined {
  if (v instanceof Uint8Array) return Buffer.from(v);
  if (typeof v === 'string') return Buffer.from(v);
  return undefined;
}
