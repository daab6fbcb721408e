import { createCipheriv, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { packNetwork } from '../serial/index.js';
import { Crypticle } from './crypticle.js';

const KEY = Crypticle.generateKeyString();

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    return (err as { code?: string }).code ?? 'thrown';
  }
  return undefined;
}

/** Encrypts with our own AES/HMAC (no padding added) to build messages a Crypticle would never make. */
function rawSeal(keyString: string, padded: Buffer, iv = Buffer.alloc(16, 9)): Buffer {
  const raw = Buffer.from(keyString, 'base64');
  const cipher = createCipheriv('aes-192-cbc', raw.subarray(0, 24), iv).setAutoPadding(false);
  const body = Buffer.concat([iv, cipher.update(padded), cipher.final()]);
  return Buffer.concat([body, createHmac('sha256', raw.subarray(24)).update(body).digest()]);
}

describe('Crypticle keys', () => {
  it('generates 76-char base64 key strings of 56 random bytes', () => {
    expect(KEY).toMatch(/^[A-Za-z0-9+/]{75}=$/);
    expect(Buffer.from(KEY, 'base64')).toHaveLength(56);
    expect(Crypticle.generateKeyString()).not.toBe(KEY);
    expect(new Crypticle(KEY).keyString).toBe(KEY);
  });

  it('rejects key strings that are not 56 bytes', () => {
    expect(codeOf(() => new Crypticle(''))).toBe('SALT_ERR_CRYPT_KEY');
    expect(codeOf(() => new Crypticle(Buffer.alloc(32).toString('base64')))).toBe('SALT_ERR_CRYPT_KEY');
    expect(codeOf(() => new Crypticle(`${KEY}AAAA`))).toBe('SALT_ERR_CRYPT_KEY');
    expect(codeOf(() => new Crypticle(`${KEY.slice(0, -1)}A`))).toBe('SALT_ERR_CRYPT_KEY');
    expect(codeOf(() => new Crypticle(KEY.replace(/./, '*')))).toBe('SALT_ERR_CRYPT_KEY');
  });

  it('tolerates whitespace around a key string read from a file', () => {
    const c = new Crypticle(`${KEY}\n`);
    expect(new Crypticle(KEY).decrypt(c.encrypt(Buffer.from('x'))).toString()).toBe('x');
  });
});

describe('encrypt / decrypt', () => {
  const c = new Crypticle(KEY);

  it.each([0, 1, 15, 16, 17, 100, 4096])('round-trips %i bytes with IV || ct || HMAC layout', (n) => {
    const plain = Buffer.alloc(n, 0x5a);
    const out = c.encrypt(plain);
    expect(out.length).toBe(16 + (Math.floor(n / 16) + 1) * 16 + 32);
    expect(c.decrypt(out)).toEqual(plain);
  });

  it('draws a fresh IV each time unless one is given', () => {
    const plain = Buffer.from('same');
    expect(c.encrypt(plain).equals(c.encrypt(plain))).toBe(false);
    const iv = Buffer.alloc(16, 1);
    expect(c.encrypt(plain, iv)).toEqual(c.encrypt(plain, iv));
    expect(c.encrypt(plain, iv).subarray(0, 16)).toEqual(iv);
    expect(codeOf(() => c.encrypt(plain, Buffer.alloc(8)))).toBe('SALT_ERR_CRYPT_KEY');
  });

  it('another instance with the same key decrypts; another key does not', () => {
    const out = c.encrypt(Buffer.from('hello'));
    expect(new Crypticle(KEY).decrypt(out).toString()).toBe('hello');
    expect(codeOf(() => new Crypticle(Crypticle.generateKeyString()).decrypt(out))).toBe(
      'SALT_ERR_CRYPT_AUTH_FAILED',
    );
  });

  it('fails authentication on any flipped byte, truncation or extension', () => {
    const out = c.encrypt(Buffer.from('a message of some length'));
    for (let i = 0; i < out.length; i++) {
      const bad = Buffer.from(out);
      bad[i] = (bad[i] ?? 0) ^ 0x01;
      expect(codeOf(() => c.decrypt(bad))).toBe('SALT_ERR_CRYPT_AUTH_FAILED');
    }
    expect(codeOf(() => c.decrypt(out.subarray(0, out.length - 1)))).toBe('SALT_ERR_CRYPT_AUTH_FAILED');
    expect(codeOf(() => c.decrypt(Buffer.concat([out, Buffer.alloc(1)])))).toBe('SALT_ERR_CRYPT_AUTH_FAILED');
    expect(codeOf(() => c.decrypt(Buffer.concat([out, Buffer.alloc(16)])))).toBe(
      'SALT_ERR_CRYPT_AUTH_FAILED',
    );
  });

  it('fails authentication on short or empty input', () => {
    for (const n of [0, 1, 31, 32, 47, 48, 63]) {
      expect(codeOf(() => c.decrypt(Buffer.alloc(n)))).toBe('SALT_ERR_CRYPT_AUTH_FAILED');
    }
  });

  it('fails on bad padding even with a valid HMAC', () => {
    expect(c.decrypt(rawSeal(KEY, Buffer.from('0123456789abcde\x01')))).toEqual(
      Buffer.from('0123456789abcde'),
    );
    expect(codeOf(() => c.decrypt(rawSeal(KEY, Buffer.from('0123456789abcde\x00'))))).toBe(
      'SALT_ERR_CRYPT_AUTH_FAILED',
    );
    expect(codeOf(() => c.decrypt(rawSeal(KEY, Buffer.from('0123456789abcde\x11'))))).toBe(
      'SALT_ERR_CRYPT_AUTH_FAILED',
    );
  });
});

describe('dumps / loads', () => {
  it('round-trips values through the pickle:: msgpack framing', () => {
    const c = new Crypticle(KEY);
    for (const v of [{ fun: 'test.ping', arg: [] }, null, 'text', [1, 2, { a: true }], {}]) {
      expect(c.loads(c.dumps(v))).toEqual(v);
    }
    const plain = c.decrypt(c.dumps({ a: 1 }));
    expect(plain.subarray(0, 8).toString()).toBe('pickle::');
    expect(plain.subarray(8)).toEqual(packNetwork({ a: 1 }));
  });

  it('puts the nonce after pickle:: and checks it', () => {
    const c = new Crypticle(KEY);
    const nonce = 'ab'.repeat(16);
    const data = c.dumps({ ok: 1 }, nonce);
    expect(c.decrypt(data).subarray(0, 40).toString()).toBe(`pickle::${nonce}`);
    expect(c.loads(data, nonce)).toEqual({ ok: 1 });
    expect(codeOf(() => c.loads(data, 'cd'.repeat(16)))).toBe('SALT_ERR_CRYPT_NONCE');
    expect(codeOf(() => c.loads(data, 'short'))).toBe('SALT_ERR_CRYPT_NONCE');
    expect(codeOf(() => c.loads(c.dumps({ ok: 1 }), nonce))).toBe('SALT_ERR_CRYPT_NONCE');
    // an empty nonce means "no nonce", as in Salt
    expect(c.decrypt(c.dumps(1, '')).length).toBe(9);
    expect(c.loads(c.dumps({ ok: 1 }), '')).toEqual({ ok: 1 });
  });

  it('returns {} when the plaintext lacks pickle::', () => {
    const c = new Crypticle(KEY);
    expect(c.loads(c.encrypt(Buffer.from('not a pickle frame')))).toEqual({});
    expect(c.loads(c.encrypt(Buffer.from('pickle:')))).toEqual({});
    expect(c.loads(c.encrypt(Buffer.alloc(0)), 'x'.repeat(32))).toEqual({});
  });

  it('throws (before deserializing) on tampered data', () => {
    const c = new Crypticle(KEY);
    const data = c.dumps({ a: 1 });
    data[20] = (data[20] ?? 0) ^ 0xff;
    expect(codeOf(() => c.loads(data))).toBe('SALT_ERR_CRYPT_AUTH_FAILED');
  });
});

describe('serial replay protection', () => {
  const publisher = new Crypticle(KEY);

  it('accepts increasing serials, strips the key, refuses replays and older ones', () => {
    const c = new Crypticle(KEY);
    expect(c.serial).toBe(0);
    const m5 = publisher.dumps({ fun: 'test.ping', serial: 5, jid: '1' });
    expect(c.loads(m5)).toEqual({ fun: 'test.ping', jid: '1' });
    expect(Object.keys(c.loads(publisher.dumps({ serial: 6, a: 1 })) as object)).toEqual(['a']);
    expect(c.serial).toBe(6);
    expect(c.loads(m5)).toEqual({});
    expect(c.loads(publisher.dumps({ serial: 6 }))).toEqual({});
    expect(c.serial).toBe(6);
    expect(c.loads(publisher.dumps({ serial: 100 }))).toEqual({});
    expect(c.serial).toBe(100);
  });

  it('starts from the constructor serial', () => {
    const m = publisher.dumps({ serial: 7, x: 1 });
    expect(new Crypticle(KEY, 7).loads(m)).toEqual({});
    expect(new Crypticle(KEY, 6).loads(m)).toEqual({ x: 1 });
  });

  it('handles big serials and refuses non-numeric ones', () => {
    const c = new Crypticle(KEY);
    expect(c.loads(publisher.dumps({ serial: 2n ** 60n, x: 1 }))).toEqual({ x: 1 });
    expect(c.serial).toBe(2 ** 60);
    expect(c.loads(publisher.dumps({ serial: 2n ** 60n }))).toEqual({});
    expect(c.loads(publisher.dumps({ serial: 2n ** 60n + 1n, y: 1 }))).toEqual({ y: 1 });
    const d = new Crypticle(KEY);
    expect(d.loads(publisher.dumps({ serial: 'nine' }))).toEqual({});
    expect(d.loads(publisher.dumps({ serial: null }))).toEqual({});
    expect(d.serial).toBe(0);
  });

  it('applies to maps with non-string keys too, and ignores non-maps', () => {
    const c = new Crypticle(KEY);
    const m = new Map<unknown, unknown>([
      [1, 'one'],
      ['serial', 3],
    ]);
    expect(c.loads(publisher.dumps(m))).toEqual(new Map([[1, 'one']]));
    expect(c.serial).toBe(3);
    expect(c.loads(publisher.dumps(m))).toEqual({});
    expect(c.loads(publisher.dumps([{ serial: 1 }]))).toEqual([{ serial: 1 }]);
    expect(c.serial).toBe(3);
  });

  it('does not check serials of replies (nonce-framed maps without serial)', () => {
    const c = new Crypticle(KEY);
    const data = publisher.dumps({ ret: 1 }, 'n'.repeat(32));
    expect(c.loads(data, 'n'.repeat(32))).toEqual({ ret: 1 });
    expect(c.loads(data, 'n'.repeat(32))).toEqual({ ret: 1 });
  });
});

describe('throughput', () => {
  it('handles thousands of small messages per second', () => {
    const c = new Crypticle(KEY);
    const load = { fun: 'test.ping', arg: [], tgt: '*', jid: '20251122104243493872', ret: '', user: 'root' };
    const start = performance.now();
    for (let i = 0; i < 5000; i++) c.loads(c.dumps(load, 'n'.repeat(32)), 'n'.repeat(32));
    expect(performance.now() - start).toBeLessThan(5000);
  });
});
