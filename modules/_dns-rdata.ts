/**
 * DNS record types and record data for the `ddns` module: a type's name to its number (as
 * dnspython's `dns.rdatatype.from_text`), record data from its presentation text (as
 * `dns.rdata.from_text` reads A, AAAA, NS, CNAME, PTR, MX, TXT, SPF and SRV), and the canonical
 * form two record datas are compared by (names lower-cased and uncompressed, RFC 4034 §6.2).
 */
import { SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import { concat, type DnsName, nameFromText, nameToWire, ROOT, readName } from './_dns-name.js';
import { parseAddr } from './_network-ip.js';
import { pythonError } from './_py-exception.js';

/** The types dnspython knows by name (the ones Salt users meet), by number. */
const TYPES: Readonly<Record<string, number>> = {
  A: 1,
  NS: 2,
  CNAME: 5,
  SOA: 6,
  PTR: 12,
  HINFO: 13,
  MX: 15,
  TXT: 16,
  RP: 17,
  AFSDB: 18,
  SIG: 24,
  KEY: 25,
  AAAA: 28,
  LOC: 29,
  SRV: 33,
  NAPTR: 35,
  CERT: 37,
  DNAME: 39,
  OPT: 41,
  DS: 43,
  SSHFP: 44,
  RRSIG: 46,
  NSEC: 47,
  DNSKEY: 48,
  NSEC3: 50,
  TLSA: 52,
  SVCB: 64,
  HTTPS: 65,
  SPF: 99,
  TKEY: 249,
  TSIG: 250,
  IXFR: 251,
  AXFR: 252,
  ANY: 255,
  URI: 256,
  CAA: 257,
};

/** Types whose record data is a single domain name. */
const NAME_TYPES = new Set([2, 5, 12, 39]);

/** `dns.rdatatype.from_text`: a type's number from its name (any case) or `TYPE<n>`. */
export function rdtypeFromText(text: string): number {
  const up = text.toUpperCase();
  const known = TYPES[up];
  if (known !== undefined) return known;
  const generic = /^TYPE(\d+)$/.exec(up);
  if (generic && Number(generic[1]) <= 65535) return Number(generic[1]);
  throw pythonError('dns.rdatatype.UnknownRdatatype', 'DNS resource record type is unknown.');
}

/** A type's name (`TYPE<n>` for one without), as dnspython names its record data classes. */
export function rdtypeToText(type: number): string {
  return Object.keys(TYPES).find((k) => TYPES[k] === type) ?? `TYPE${type}`;
}

/** Record data read from text: bytes, with domain names kept apart until the origin is known. */
export type RdataPart = Buffer | DnsName;
export interface Rdata {
  type: number;
  parts: RdataPart[];
}

const malformed = () => pythonError('dns.exception.SyntaxError', 'Text input is malformed.');

function u16(n: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n);
  return b;
}

function uint16Field(tok: string | undefined): Buffer {
  if (tok === undefined || !/^\d+$/.test(tok) || Number(tok) > 65535) throw malformed();
  return u16(Number(tok));
}

/** `dns.rdata.from_text(IN, type, text)` for the types tsalt's ddns writes. */
export function rdataFromText(type: number, text: string): Rdata {
  const toks = tokenize(text);
  const nameTok = (t: string | undefined): DnsName => {
    if (t === undefined) throw malformed();
    return nameFromText(t, null);
  };
  const done = (parts: RdataPart[], used: number): Rdata => {
    if (toks.length !== used) throw malformed();
    return { type, parts };
  };
  switch (type) {
    case 1:
    case 28: {
      const a = toks[0] === undefined ? undefined : parseAddr(toks[0]);
      const ok = a && (type === 1 ? a.version === 4 && ipv4Strict(toks[0] ?? '') : a.version === 6);
      if (!a || !ok) throw malformed();
      const len = type === 1 ? 4 : 16;
      return done([Buffer.from(a.value.toString(16).padStart(len * 2, '0'), 'hex')], 1);
    }
    case 15:
      return done([uint16Field(toks[0]), nameTok(toks[1])], 2);
    case 33:
      return done([uint16Field(toks[0]), uint16Field(toks[1]), uint16Field(toks[2]), nameTok(toks[3])], 4);
    case 16:
    case 99: {
      if (toks.length === 0)
        throw pythonError('dns.exception.UnexpectedEnd', 'Text input ended unexpectedly.');
      return { type, parts: toks.map((t) => characterString(t)) };
    }
    default:
      if (NAME_TYPES.has(type)) return done([nameTok(toks[0])], 1);
      throw new SALT_ERR_EXEC_COMMAND(`tsalt's ddns module cannot write records of type ${type} yet`);
  }
}

/** dnspython's IPv4 text: four decimal parts, none with a leading zero. */
function ipv4Strict(text: string): boolean {
  return text.split('.').every((p) => /^(0|[1-9]\d{0,2})$/.test(p));
}

function characterString(tok: string): Buffer {
  const raw = Buffer.from(unescapeText(tok), 'latin1');
  if (raw.length > 255) throw pythonError('dns.exception.SyntaxError', 'string too long');
  return Buffer.concat([Buffer.from([raw.length]), raw]);
}

/** `\X` and `\DDD` escapes of a token, as bytes held in a latin1 string. */
function unescapeText(tok: string): string {
  const bytes = Buffer.from(tok, 'utf8').toString('latin1');
  return bytes.replace(/\\(\d{3}|.)/gs, (_m, e: string) =>
    e.length === 3 ? String.fromCharCode(Number(e) & 0xff) : e,
  );
}

/** Splits presentation text into tokens: whitespace-separated, `"..."` quoting (kept as one token). */
function tokenize(text: string): string[] {
  const out: string[] = [];
  const re = /"((?:[^"\\]|\\.)*)"|((?:[^\s"\\]|\\.)+)/gs;
  for (const m of text.matchAll(re)) out.push((m[1] ?? m[2]) as string);
  return out;
}

/** The wire form of record data, its relative names completed with `origin`. */
export function rdataToWire(r: Rdata, origin: DnsName = ROOT, canonical = false): Buffer {
  return Buffer.concat(
    r.parts.map((p) => (Buffer.isBuffer(p) ? p : nameToWire(p.absolute ? p : concat(p, origin), canonical))),
  );
}

/**
 * The canonical form of record data of `type` received at `offset`..`offset+len` of a message:
 * compressed names expanded and lower-cased, so it compares with {@link rdataToWire}'s canonical form.
 */
export function canonicalRdataAt(msg: Buffer, type: number, offset: number, len: number): Buffer {
  const nameAt = (at: number) => nameToWire(readName(msg, at)[0], true);
  if (NAME_TYPES.has(type)) return nameAt(offset);
  if (type === 15) return Buffer.concat([msg.subarray(offset, offset + 2), nameAt(offset + 2)]);
  if (type === 33) return Buffer.concat([msg.subarray(offset, offset + 6), nameAt(offset + 6)]);
  return Buffer.from(msg.subarray(offset, offset + len));
}
