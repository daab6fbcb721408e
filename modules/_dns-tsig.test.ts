import { describe, expect, it } from 'vitest';
import {
  CLASS_ANY,
  CLASS_IN,
  CLASS_NONE,
  decodeMessage,
  encodeMessage,
  OPCODE_UPDATE,
} from './_dns-message.js';
import { nameFromText, nameToText } from './_dns-name.js';
import { canonicalRdataAt, rdataFromText, rdataToWire, rdtypeFromText } from './_dns-rdata.js';
import { signMessage, type TsigKey, verifyReply } from './_dns-tsig.js';

// Reference messages made by dnspython 2.3 (Debian's python3-dnspython, what Salt uses), with
// message ids fixed and time.time() pinned to 1700000000 for the signed ones:
//   u = dns.update.Update('example.test', keyring={'tsalt-md5.': 'c2VjcmV0c2VjcmV0c2VjcmV0'},
//                         keyalgorithm=ALG); u.replace('h1', 60, <A 192.0.2.10>)
const SIGNED_MD5 =
  '432128000001000000020001076578616d706c6504746573740000060001026831c00c000100ff000000000000c01e000100010000003c0004c000020a097473616c742d6d64350000fa00ff00000000003a08484d41432d4d4435075349472d414c470352454703494e540000006553f100012c0010edf41a24b1569e130dee89ca5f825f55432100000000';
const SIGNED_SHA256 =
  '432128000001000000020001076578616d706c6504746573740000060001026831c00c000100ff000000000000c01e000100010000003c0004c000020a097473616c742d6d64350000fa00ff00000000003d0b686d61632d7368613235360000006553f100012c0020f9719ef89fb55c69f11c8665c6bfc27cc2212080d9580e69e5317188c94b91fe432100000000';
// u = dns.update.Update('open.test'); u.delete('h2'); u.delete('txt1', 'TXT');
// u.delete('mx', <MX 10 mail>); u.add('t', 60, <TXT "hello world" x\065>)
const UNSIGNED =
  '000728000001000000040000046f70656e04746573740000060001026832c00c00ff00ff0000000000000474787431c00c001000ff000000000000026d78c00c000f00fe000000000009000a046d61696cc00c0174c00c001000010000003c000f0b68656c6c6f20776f726c64027841';
// dns.message.make_query('h1.example.test', 'A') with id 0x1234
const QUERY = '123401000001000000000000026831076578616d706c6504746573740000010001';

const SECRET = Buffer.from('c2VjcmV0c2VjcmV0c2VjcmV0', 'base64');
const key = (alg: string): TsigKey => ({
  name: nameFromText('tsalt-md5.'),
  secret: SECRET,
  algorithm: nameFromText(alg),
});
const NOW = 1700000000;

describe('TSIG against dnspython', () => {
  it('verifies the MAC dnspython puts on an HMAC-MD5 and an HMAC-SHA256 update', () => {
    expect(() =>
      verifyReply(decodeMessage(Buffer.from(SIGNED_MD5, 'hex')), key('hmac-md5.sig-alg.reg.int'), null, NOW),
    ).not.toThrow();
    expect(() =>
      verifyReply(decodeMessage(Buffer.from(SIGNED_SHA256, 'hex')), key('hmac-sha256'), null, NOW),
    ).not.toThrow();
  });

  it('rejects a wrong secret, a changed byte, another algorithm and a stale time', () => {
    const wire = Buffer.from(SIGNED_MD5, 'hex');
    const wrong = { ...key('hmac-md5.sig-alg.reg.int'), secret: Buffer.from('other') };
    expect(() => verifyReply(decodeMessage(wire), wrong, null, NOW)).toThrow(
      'The TSIG signature fails to verify.',
    );
    const changed = Buffer.from(wire);
    changed[0x3c] = 11; // the A record's last octet: 192.0.2.11
    expect(() => verifyReply(decodeMessage(changed), key('hmac-md5.sig-alg.reg.int'), null, NOW)).toThrow(
      'fails to verify',
    );
    expect(() => verifyReply(decodeMessage(wire), key('hmac-sha256'), null, NOW)).toThrow(
      'does not match the key',
    );
    expect(() => verifyReply(decodeMessage(wire), key('hmac-md5.sig-alg.reg.int'), null, NOW + 301)).toThrow(
      "not within the TSIG's validity time",
    );
  });

  it('signs what it sends so that its own check (and the same MAC rule) accepts it', () => {
    const zone = nameFromText('example.test');
    const m = {
      id: 0x4321,
      opcode: OPCODE_UPDATE,
      rd: false,
      question: [{ name: zone, type: 6, cls: CLASS_IN }],
      answer: [],
      authority: [
        { name: nameFromText('h1.example.test.'), type: 1, cls: CLASS_ANY, ttl: 0, rdata: Buffer.alloc(0) },
      ],
      additional: [],
    };
    for (const alg of ['hmac-md5.sig-alg.reg.int', 'hmac-sha1', 'hmac-sha256', 'hmac-sha512']) {
      const [wire, mac] = signMessage(m, key(alg), NOW);
      const back = decodeMessage(wire);
      expect(back.additional).toHaveLength(1);
      expect(back.additional[0]?.type).toBe(250);
      expect(mac.length).toBe(
        { 'hmac-md5.sig-alg.reg.int': 16, 'hmac-sha1': 20, 'hmac-sha256': 32, 'hmac-sha512': 64 }[alg],
      );
      expect(() => verifyReply(back, key(alg), null, NOW)).not.toThrow();
    }
  });

  it('raises what dnspython raises for an unknown algorithm and for a TSIG error from the server', () => {
    const m = {
      id: 1,
      opcode: OPCODE_UPDATE,
      rd: false,
      question: [],
      answer: [],
      authority: [],
      additional: [],
    };
    expect(() => signMessage(m, key('hmac-foo'), NOW)).toThrow('<DNS name hmac-foo.>');
    // a reply whose TSIG carries error 16 (BADSIG), as BIND sends for a wrong secret
    const [wire] = signMessage(m, key('hmac-md5.sig-alg.reg.int'), NOW);
    const bad = Buffer.from(wire);
    bad.writeUInt16BE(16, bad.length - 4);
    expect(() => verifyReply(decodeMessage(bad), key('hmac-md5.sig-alg.reg.int'), null, NOW)).toThrow(
      "The peer didn't like the signature we sent",
    );
    // a TSIG whose rdata stops after the algorithm's name: FormError, not a RangeError
    const t = decodeMessage(wire).additional.at(-1);
    if (!t) throw new Error('no TSIG record');
    const cut = Buffer.from(wire.subarray(0, t.rdOffset + 1));
    cut.writeUInt16BE(1, t.rdOffset - 2);
    cut[t.rdOffset] = 0;
    expect(() => verifyReply(decodeMessage(cut), key('hmac-md5.sig-alg.reg.int'), null, NOW)).toThrow(
      'DNS message is malformed.',
    );
  });
});

describe('messages and record data against dnspython', () => {
  it('encodes make_query byte for byte', () => {
    const wire = encodeMessage({
      id: 0x1234,
      opcode: 0,
      rd: true,
      question: [{ name: nameFromText('h1.example.test'), type: 1, cls: CLASS_IN }],
      answer: [],
      authority: [],
      additional: [],
    });
    expect(wire.toString('hex')).toBe(QUERY);
  });

  it('reads a compressed update and its record datas as dnspython wrote them', () => {
    const m = decodeMessage(Buffer.from(UNSIGNED, 'hex'));
    expect(m.opcode).toBe(OPCODE_UPDATE);
    expect(m.authority.map((r) => [nameToText(r.name), r.type, r.cls, r.ttl])).toEqual([
      ['h2.open.test.', 255, CLASS_ANY, 0],
      ['txt1.open.test.', 16, CLASS_ANY, 0],
      ['mx.open.test.', 15, CLASS_NONE, 0],
      ['t.open.test.', 16, CLASS_IN, 60],
    ]);
    const zone = nameFromText('open.test');
    const mx = m.authority[2];
    const txt = m.authority[3];
    if (!mx || !txt) throw new Error('missing records');
    // a relative name in record data is completed with the zone, as dnspython renders it
    expect(canonicalRdataAt(m.wire, 15, mx.rdOffset, mx.rdLength)).toEqual(
      rdataToWire(rdataFromText(15, '10 mail'), zone, true),
    );
    expect(canonicalRdataAt(m.wire, 16, txt.rdOffset, txt.rdLength)).toEqual(
      rdataToWire(rdataFromText(16, '"hello world" x\\065'), zone),
    );
  });

  it('reads names and types as dnspython does, and refuses what it refuses', () => {
    expect(nameToText(nameFromText('a\\.b.example.test'))).toBe('a\\.b.example.test.');
    expect(nameToText(nameFromText('h1', nameFromText('example.test')))).toBe('h1.example.test.');
    expect(() => nameFromText('a..b')).toThrow('A DNS label is empty.');
    expect(() => nameFromText(`${'x'.repeat(64)}.test`)).toThrow('> 63 octets');
    expect(rdtypeFromText('aaaa')).toBe(28);
    expect(rdtypeFromText('TYPE65280')).toBe(65280);
    expect(() => rdtypeFromText('BOGUS')).toThrow('DNS resource record type is unknown.');
    expect(rdataToWire(rdataFromText(1, '192.0.2.10'))).toEqual(Buffer.from([192, 0, 2, 10]));
    expect(rdataToWire(rdataFromText(28, '2001:db8::1')).toString('hex')).toBe(
      '20010db8000000000000000000000001',
    );
    for (const bad of ['192.0.2.300', '192.0.2.010', 'notanip', '192.0.2.1 extra'])
      expect(() => rdataFromText(1, bad)).toThrow('Text input is malformed.');
  });
});
