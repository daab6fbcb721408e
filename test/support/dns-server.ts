/**
 * A tiny authoritative DNS server over UDP (RFC 1035) for tests of the `dig` module: a fixed zone
 * of A, AAAA, CNAME, NS, MX, TXT, SPF and PTR records, answered as an authoritative server does
 * (a CNAME followed for A/AAAA questions, NXDOMAIN for a name it does not hold). It binds port 53
 * of a loopback address because Salt's `dig` functions name a server but never a port.
 */
import { createSocket, type Socket } from 'node:dgram';
import { parseAddr } from '../../modules/_network-ip.js';

export type RecordType = 'A' | 'AAAA' | 'CNAME' | 'NS' | 'MX' | 'TXT' | 'SPF' | 'PTR';
/** Values by type: an address, a name, `[preference, name]` for MX, strings for TXT/SPF. */
export type ZoneRecord =
  | { type: 'A' | 'AAAA' | 'CNAME' | 'NS' | 'PTR'; value: string }
  | { type: 'MX'; value: [number, string] }
  | { type: 'TXT' | 'SPF'; value: string[] };
export type Zone = Record<string, ZoneRecord[]>;

const TYPE_CODES: Record<RecordType, number> = {
  A: 1,
  NS: 2,
  CNAME: 5,
  PTR: 12,
  MX: 15,
  TXT: 16,
  AAAA: 28,
  SPF: 99,
};

const lower = (name: string) => name.toLowerCase().replace(/\.$/, '');

function encodeName(name: string): Buffer {
  const parts = lower(name)
    .split('.')
    .filter((l) => l !== '');
  return Buffer.concat([
    ...parts.map((l) => Buffer.concat([Buffer.from([l.length]), Buffer.from(l)])),
    Buffer.from([0]),
  ]);
}

function u16(n: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n);
  return b;
}

function rdata(r: ZoneRecord): Buffer {
  switch (r.type) {
    case 'A':
    case 'AAAA': {
      const a = parseAddr(r.value);
      if (!a) throw new Error(`bad address ${r.value}`);
      const len = a.version === 4 ? 4 : 16;
      return Buffer.from(a.value.toString(16).padStart(len * 2, '0'), 'hex');
    }
    case 'MX':
      return Buffer.concat([u16(r.value[0]), encodeName(r.value[1])]);
    case 'TXT':
    case 'SPF':
      return Buffer.concat(
        r.value.map((s) => Buffer.concat([Buffer.from([Buffer.byteLength(s)]), Buffer.from(s)])),
      );
    default:
      return encodeName(r.value);
  }
}

function answer(name: string, r: ZoneRecord): Buffer {
  const data = rdata(r);
  const ttl = Buffer.alloc(4);
  ttl.writeUInt32BE(60);
  return Buffer.concat([encodeName(name), u16(TYPE_CODES[r.type]), u16(1), ttl, u16(data.length), data]);
}

/** The question's name and type, and where the question ends. */
function readQuestion(msg: Buffer): { name: string; qtype: number; end: number } {
  const labels: string[] = [];
  let at = 12;
  for (let len = msg[at] as number; len > 0; len = msg[at] as number) {
    labels.push(msg.subarray(at + 1, at + 1 + len).toString());
    at += 1 + len;
  }
  return { name: labels.join('.'), qtype: msg.readUInt16BE(at + 1), end: at + 5 };
}

function respond(zone: Zone, msg: Buffer): Buffer {
  const { name, qtype, end } = readQuestion(msg);
  const answers: Buffer[] = [];
  let owner = lower(name);
  let known = owner in zone;
  for (let hops = 0; hops < 8 && known; hops++) {
    const records = zone[owner] ?? [];
    const direct = records.filter((r) => TYPE_CODES[r.type] === qtype);
    const cname = records.find((r): r is ZoneRecord & { type: 'CNAME'; value: string } => r.type === 'CNAME');
    for (const r of direct) answers.push(answer(owner, r));
    if (direct.length > 0 || !cname || qtype === TYPE_CODES.CNAME) break;
    answers.push(answer(owner, cname));
    owner = lower(cname.value);
    known = owner in zone;
  }
  const rcode = lower(name) in zone ? 0 : 3;
  const header = Buffer.alloc(12);
  header.writeUInt16BE(msg.readUInt16BE(0), 0);
  header.writeUInt16BE(0x8400 | (msg.readUInt16BE(2) & 0x0100) | rcode, 2);
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(answers.length, 6);
  return Buffer.concat([header, msg.subarray(12, end), ...answers]);
}

export interface DnsServer {
  address: string;
  close(): Promise<void>;
}

/** Serves `zone` on `address`:53 (UDP). */
export async function startDnsServer(zone: Zone, address: string): Promise<DnsServer> {
  const lowered: Zone = Object.fromEntries(Object.entries(zone).map(([k, v]) => [lower(k), v]));
  const sock: Socket = createSocket('udp4');
  sock.on('message', (msg, peer) => {
    try {
      sock.send(respond(lowered, msg), peer.port, peer.address);
    } catch {
      // a malformed question gets no answer
    }
  });
  await new Promise<void>((resolve, reject) => {
    sock.once('error', reject);
    sock.bind(53, address, () => resolve());
  });
  return { address, close: () => new Promise<void>((resolve) => sock.close(() => resolve())) };
}
