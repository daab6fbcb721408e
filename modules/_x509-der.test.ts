import { describe, expect, it } from 'vitest';
import {
  children,
  derInt,
  derOid,
  derString,
  derTime,
  readInt,
  readNode,
  readOid,
  readTime,
  seq,
  TAG,
} from './_x509-der.js';

describe('DER writer and reader', () => {
  it('writes OIDs, integers and long lengths as OpenSSL does, and reads them back', () => {
    expect(derOid('1.2.840.113549.1.1.11').toString('hex')).toBe('06092a864886f70d01010b');
    expect(readOid(readNode(derOid('2.5.29.37')))).toBe('2.5.29.37');
    expect(derInt(128).toString('hex')).toBe('02020080');
    expect(readInt(readNode(derInt(1234n)))).toBe(1234n);
    const long = seq(derString(TAG.UTF8, 'x'.repeat(300)));
    expect(long.subarray(0, 4).toString('hex')).toBe('30820130');
    expect(children(readNode(long))[0]?.content.length).toBe(300);
  });

  it('writes UTCTime before 2050 and GeneralizedTime from 2050', () => {
    const t = new Date(Date.UTC(2049, 11, 31, 23, 59, 59));
    expect(derTime(t).toString('latin1', 2)).toBe('491231235959Z');
    expect(readTime(readNode(derTime(t)))).toEqual(t);
    const g = new Date(Date.UTC(2050, 0, 1));
    expect(derTime(g)[0]).toBe(TAG.GENERALIZED_TIME);
    expect(readTime(readNode(derTime(g)))).toEqual(g);
  });

  it('refuses truncated input', () => {
    expect(() => readNode(Buffer.from('3005020101', 'hex'))).toThrow('DER: truncated');
  });
});
