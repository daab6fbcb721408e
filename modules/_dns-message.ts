/**
 * DNS messages on the wire (RFC 1035 §4.1) for the `ddns` module: a query or an UPDATE
 * (RFC 2136 §2, whose zone/prerequisite/update sections reuse the question/answer/authority
 * layout) encoded without name compression, and a server's reply decoded.
 */
import { type DnsName, formError, nameToWire, readName } from './_dns-name.js';

export const OPCODE_QUERY = 0;
export const OPCODE_UPDATE = 5;
export const CLASS_IN = 1;
export const CLASS_NONE = 254;
export const CLASS_ANY = 255;
export const TYPE_TSIG = 250;

export interface Question {
  name: DnsName;
  type: number;
  cls: number;
}

/** A record to send: its data already in wire form. */
export interface OutRecord extends Question {
  ttl: number;
  rdata: Buffer;
}

export interface OutMessage {
  id: number;
  opcode: number;
  /** Recursion desired (dnspython's `make_query` sets it). */
  rd: boolean;
  question: Question[];
  answer: OutRecord[];
  authority: OutRecord[];
  additional: OutRecord[];
}

/** A received record: where its data lies in the message it came in. */
export interface InRecord {
  name: DnsName;
  type: number;
  cls: number;
  ttl: number;
  rdOffset: number;
  rdLength: number;
  /** Offset of the record's first byte. */
  start: number;
}

export interface InMessage {
  id: number;
  qr: boolean;
  opcode: number;
  rcode: number;
  question: Question[];
  answer: InRecord[];
  authority: InRecord[];
  additional: InRecord[];
  wire: Buffer;
}

function u16(n: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n & 0xffff);
  return b;
}

export function recordToWire(r: OutRecord): Buffer {
  const fixed = Buffer.alloc(10);
  fixed.writeUInt16BE(r.type, 0);
  fixed.writeUInt16BE(r.cls, 2);
  fixed.writeUInt32BE(r.ttl >>> 0, 4);
  fixed.writeUInt16BE(r.rdata.length, 8);
  return Buffer.concat([nameToWire(r.name), fixed, r.rdata]);
}

export function encodeMessage(m: OutMessage): Buffer {
  const header = Buffer.alloc(12);
  header.writeUInt16BE(m.id, 0);
  header.writeUInt16BE(((m.opcode & 0xf) << 11) | (m.rd ? 0x0100 : 0), 2);
  header.writeUInt16BE(m.question.length, 4);
  header.writeUInt16BE(m.answer.length, 6);
  header.writeUInt16BE(m.authority.length, 8);
  header.writeUInt16BE(m.additional.length, 10);
  const questions = m.question.map((q) => Buffer.concat([nameToWire(q.name), u16(q.type), u16(q.cls)]));
  const records = [...m.answer, ...m.authority, ...m.additional].map(recordToWire);
  return Buffer.concat([header, ...questions, ...records]);
}

export function decodeMessage(wire: Buffer): InMessage {
  if (wire.length < 12) throw formError();
  const flags = wire.readUInt16BE(2);
  const counts = [4, 6, 8, 10].map((o) => wire.readUInt16BE(o)) as [number, number, number, number];
  let at = 12;
  const question: Question[] = [];
  for (let i = 0; i < counts[0]; i++) {
    const [name, next] = readName(wire, at);
    if (next + 4 > wire.length) throw formError();
    question.push({ name, type: wire.readUInt16BE(next), cls: wire.readUInt16BE(next + 2) });
    at = next + 4;
  }
  const section = (n: number): InRecord[] => {
    const out: InRecord[] = [];
    for (let i = 0; i < n; i++) {
      const start = at;
      const [name, next] = readName(wire, at);
      if (next + 10 > wire.length) throw formError();
      const rdLength = wire.readUInt16BE(next + 8);
      if (next + 10 + rdLength > wire.length) throw formError();
      out.push({
        name,
        type: wire.readUInt16BE(next),
        cls: wire.readUInt16BE(next + 2),
        ttl: wire.readUInt32BE(next + 4),
        rdOffset: next + 10,
        rdLength,
        start,
      });
      at = next + 10 + rdLength;
    }
    return out;
  };
  const answer = section(counts[1]);
  const authority = section(counts[2]);
  const additional = section(counts[3]);
  return {
    id: wire.readUInt16BE(0),
    qr: (flags & 0x8000) !== 0,
    opcode: (flags >> 11) & 0xf,
    rcode: flags & 0xf,
    question,
    answer,
    authority,
    additional,
    wire,
  };
}
