/**
 * TSIG (RFC 8945) for the `ddns` module: signs a request with an HMAC key and verifies the
 * server's signed reply, raising what dnspython raises when the server rejects the key or the
 * signature (`dns.tsig.PeerBadSignature`, ...) or when the reply's signature does not verify.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { CLASS_ANY, encodeMessage, type InMessage, type OutMessage, TYPE_TSIG } from './_dns-message.js';
import { type DnsName, formError, nameToText, nameToWire, readName, sameName } from './_dns-name.js';
import { pythonError } from './_py-exception.js';

export interface TsigKey {
  name: DnsName;
  secret: Buffer;
  algorithm: DnsName;
}

/** The HMAC algorithms TSIG names, with the hash and the MAC length (bytes) each sends. */
const ALGORITHMS: Readonly<Record<string, [hash: string, macSize: number]>> = {
  'hmac-md5.sig-alg.reg.int': ['md5', 16],
  'hmac-sha1': ['sha1', 20],
  'hmac-sha224': ['sha224', 28],
  'hmac-sha256': ['sha256', 32],
  'hmac-sha256-128': ['sha256', 16],
  'hmac-sha384': ['sha384', 48],
  'hmac-sha384-192': ['sha384', 24],
  'hmac-sha512': ['sha512', 64],
  'hmac-sha512-256': ['sha512', 32],
};

const FUDGE = 300;

function algorithmOf(name: DnsName): [string, number] {
  const key = name.labels.map((l) => l.toString('latin1').toLowerCase()).join('.');
  const alg = ALGORITHMS[key];
  // dnspython looks the MAC size up in a dict keyed by name: an unknown one is a KeyError
  if (!alg) throw pythonError('KeyError', `<DNS name ${nameToText(name)}>`);
  return alg;
}

/** Throws dnspython's KeyError when `key`'s algorithm is not one TSIG knows. */
export function checkAlgorithm(key: TsigKey): void {
  algorithmOf(key.algorithm);
}

/** The TSIG variables of RFC 8945 §4.3.3, after the message bytes. */
function variables(key: TsigKey, time: number, fudge: number, error: number, other: Buffer): Buffer {
  const fixed = Buffer.alloc(6);
  fixed.writeUInt16BE(CLASS_ANY, 0);
  fixed.writeUInt32BE(0, 2);
  const timing = Buffer.alloc(12);
  timing.writeUIntBE(time, 0, 6);
  timing.writeUInt16BE(fudge, 6);
  timing.writeUInt16BE(error, 8);
  timing.writeUInt16BE(other.length, 10);
  return Buffer.concat([nameToWire(key.name, true), fixed, nameToWire(key.algorithm, true), timing, other]);
}

function mac(key: TsigKey, parts: Buffer[]): Buffer {
  const [hash, size] = algorithmOf(key.algorithm);
  const h = createHmac(hash, key.secret);
  for (const p of parts) h.update(p);
  return h.digest().subarray(0, size);
}

/** Encodes `m` with a TSIG record signed by `key` appended; answers the wire and the request MAC. */
export function signMessage(
  m: OutMessage,
  key: TsigKey,
  now = Math.floor(Date.now() / 1000),
): [Buffer, Buffer] {
  const body = encodeMessage(m);
  const requestMac = mac(key, [body, variables(key, now, FUDGE, 0, Buffer.alloc(0))]);
  const head = Buffer.alloc(8);
  head.writeUIntBE(now, 0, 6);
  head.writeUInt16BE(FUDGE, 6);
  const size = Buffer.alloc(2);
  size.writeUInt16BE(requestMac.length);
  const tail = Buffer.alloc(6);
  tail.writeUInt16BE(m.id, 0);
  const rdata = Buffer.concat([nameToWire(key.algorithm, true), head, size, requestMac, tail]);
  const signed = encodeMessage({
    ...m,
    additional: [...m.additional, { name: key.name, type: TYPE_TSIG, cls: CLASS_ANY, ttl: 0, rdata }],
  });
  return [signed, requestMac];
}

const PEER_ERRORS: Readonly<Record<number, [string, string]>> = {
  16: ['dns.tsig.PeerBadSignature', "The peer didn't like the signature we sent"],
  17: ['dns.tsig.PeerBadKey', "The peer didn't know the key we used"],
  18: ['dns.tsig.PeerBadTime', "The peer didn't like the time we sent"],
  22: ['dns.tsig.PeerBadTruncation', "The peer didn't like amount of truncation in the TSIG we sent"],
};

/**
 * Checks the TSIG of a reply to a request signed with `key` whose MAC was `requestMac` (null:
 * of a request itself), as
 * dnspython does on reading it: a reply without a TSIG passes; a TSIG error the server reports,
 * a time outside the fudge, another key or algorithm, or a MAC that does not match throws.
 */
export function verifyReply(
  reply: InMessage,
  key: TsigKey,
  requestMac: Buffer | null,
  now = Date.now() / 1000,
): void {
  const last = reply.additional.at(-1);
  if (!last || last.type !== TYPE_TSIG) return;
  const w = reply.wire;
  const [algorithm, at] = readName(w, last.rdOffset);
  // every field inside the record's rdata, as dnspython's parser insists (else FormError)
  const end = last.rdOffset + last.rdLength;
  if (at + 10 > end) throw formError();
  const time = w.readUIntBE(at, 6);
  const fudge = w.readUInt16BE(at + 6);
  const macLen = w.readUInt16BE(at + 8);
  const rest = at + 10 + macLen;
  if (rest + 6 > end) throw formError();
  const gotMac = w.subarray(at + 10, rest);
  const originalId = w.readUInt16BE(rest);
  const error = w.readUInt16BE(rest + 2);
  const otherLen = w.readUInt16BE(rest + 4);
  if (rest + 6 + otherLen > end) throw formError();
  const other = w.subarray(rest + 6, rest + 6 + otherLen);
  if (error !== 0) {
    const [name, text] = PEER_ERRORS[error] ?? ['dns.tsig.PeerError', `unknown TSIG error code ${error}`];
    throw pythonError(name, text);
  }
  if (Math.abs(time - now) > fudge)
    throw pythonError('dns.tsig.BadTime', "The current time is not within the TSIG's validity time.");
  if (!sameName(key.name, last.name))
    throw pythonError('dns.tsig.BadKey', 'The TSIG record owner name does not match the key.');
  if (!sameName(key.algorithm, algorithm))
    throw pythonError('dns.tsig.BadAlgorithm', 'The TSIG algorithm does not match the key.');
  const unsigned = Buffer.from(w.subarray(0, last.start));
  unsigned.writeUInt16BE(originalId, 0);
  unsigned.writeUInt16BE(reply.additional.length - 1, 10);
  const prefix: Buffer[] = [];
  if (requestMac && requestMac.length > 0) {
    const len = Buffer.alloc(2);
    len.writeUInt16BE(requestMac.length);
    prefix.push(len, requestMac);
  }
  const want = mac(key, [...prefix, unsigned, variables(key, time, fudge, error, other)]);
  if (want.length !== gotMac.length || !timingSafeEqual(want, gotMac))
    throw pythonError('dns.tsig.BadSignature', 'The TSIG signature fails to verify.');
}
