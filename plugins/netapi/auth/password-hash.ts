/**
 * Password hashes that Salt's `file` eauth accepts: `hashutil.digest` hex digests for text
 * files (`^hashtype: sha256`), and the htpasswd schemes passlib's `HtpasswdFile` verifies that
 * Node can compute without a native module: `$apr1$`/`$1$` (MD5-crypt), `$5$`/`$6$`
 * (SHA-crypt), `{SHA}` (ldap_sha1) and plaintext. bcrypt and DES-crypt are refused with a
 * reason (no well-kept pure binding here).
 */
import { createHash, getHashes, timingSafeEqual } from 'node:crypto';

const ITOA64 = './0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Constant-time string equality. */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Salt's `hashutil.digest(password, hashtype)`: the hex digest, or undefined for an unknown type. */
export function hexDigest(text: string, hashtype: string): string | undefined {
  const algo = hashtype.toLowerCase();
  if (!getHashes().includes(algo)) return undefined;
  return createHash(algo).update(text, 'utf8').digest('hex');
}

function b64From24(b2: number, b1: number, b0: number, n: number): string {
  let w = (b2 << 16) | (b1 << 8) | b0;
  let out = '';
  for (let i = 0; i < n; i++) {
    out += ITOA64[w & 0x3f];
    w >>>= 6;
  }
  return out;
}

function encodeTriples(bytes: Buffer, triples: readonly (readonly [number, number, number])[]): string {
  return triples.map(([a, b, c]) => b64From24(bytes[a] ?? 0, bytes[b] ?? 0, bytes[c] ?? 0, 4)).join('');
}

/** MD5-crypt (`$1$`) and Apache's variant (`$apr1$`): the full hash string. */
export function md5Crypt(password: string, salt: string, magic: '$1$' | '$apr1$'): string {
  const pw = Buffer.from(password, 'utf8');
  const s = Buffer.from(salt.slice(0, 8), 'utf8');
  const alt = createHash('md5').update(pw).update(s).update(pw).digest();
  const ctx = createHash('md5').update(pw).update(magic).update(s);
  for (let i = pw.length; i > 0; i -= 16) ctx.update(alt.subarray(0, Math.min(16, i)));
  for (let i = pw.length; i > 0; i >>= 1) ctx.update(i & 1 ? Buffer.from([0]) : pw.subarray(0, 1));
  let fin = ctx.digest();
  for (let i = 0; i < 1000; i++) {
    const c = createHash('md5');
    c.update(i & 1 ? pw : fin);
    if (i % 3) c.update(s);
    if (i % 7) c.update(pw);
    c.update(i & 1 ? fin : pw);
    fin = c.digest();
  }
  const body =
    encodeTriples(fin, [
      [0, 6, 12],
      [1, 7, 13],
      [2, 8, 14],
      [3, 9, 15],
      [4, 10, 5],
    ]) + b64From24(0, 0, fin[11] ?? 0, 2);
  return `${magic}${s.toString('utf8')}$${body}`;
}

const SHA256_ORDER: readonly (readonly [number, number, number])[] = [
  [0, 10, 20],
  [21, 1, 11],
  [12, 22, 2],
  [3, 13, 23],
  [24, 4, 14],
  [15, 25, 5],
  [6, 16, 26],
  [27, 7, 17],
  [18, 28, 8],
  [9, 19, 29],
];

const SHA512_ORDER: readonly (readonly [number, number, number])[] = [
  [0, 21, 42],
  [22, 43, 1],
  [44, 2, 23],
  [3, 24, 45],
  [25, 46, 4],
  [47, 5, 26],
  [6, 27, 48],
  [28, 49, 7],
  [50, 8, 29],
  [9, 30, 51],
  [31, 52, 10],
  [53, 11, 32],
  [12, 33, 54],
  [34, 55, 13],
  [56, 14, 35],
  [15, 36, 57],
  [37, 58, 16],
  [59, 17, 38],
  [18, 39, 60],
  [40, 61, 19],
  [62, 20, 41],
];

function repeatTo(block: Buffer, len: number): Buffer {
  const out = Buffer.alloc(len);
  for (let i = 0; i < len; i += block.length) block.copy(out, i, 0, Math.min(block.length, len - i));
  return out;
}

/**
 * SHA-crypt (`$5$` SHA-256, `$6$` SHA-512; Drepper's specification): the full hash string.
 * `rounds` undefined means the default 5000 (and no `rounds=` in the output).
 */
export function shaCrypt(password: string, salt: string, kind: '5' | '6', rounds?: number): string {
  const algo = kind === '5' ? 'sha256' : 'sha512';
  const size = kind === '5' ? 32 : 64;
  const r = rounds === undefined ? 5000 : Math.min(999_999_999, Math.max(1000, rounds));
  const pw = Buffer.from(password, 'utf8');
  const s = Buffer.from(salt.slice(0, 16), 'utf8');
  const b = createHash(algo).update(pw).update(s).update(pw).digest();
  const a = createHash(algo).update(pw).update(s);
  for (let i = pw.length; i > 0; i -= size) a.update(b.subarray(0, Math.min(size, i)));
  for (let i = pw.length; i > 0; i >>= 1) a.update(i & 1 ? b : pw);
  let c = a.digest();
  const dp = createHash(algo);
  for (let i = 0; i < pw.length; i++) dp.update(pw);
  const pSeq = repeatTo(dp.digest(), pw.length);
  const ds = createHash(algo);
  for (let i = 0; i < 16 + (c[0] ?? 0); i++) ds.update(s);
  const sSeq = repeatTo(ds.digest(), s.length);
  for (let i = 0; i < r; i++) {
    const h = createHash(algo);
    h.update(i & 1 ? pSeq : c);
    if (i % 3) h.update(sSeq);
    if (i % 7) h.update(pSeq);
    h.update(i & 1 ? c : pSeq);
    c = h.digest();
  }
  const body =
    kind === '5'
      ? encodeTriples(c, SHA256_ORDER) + b64From24(0, c[31] ?? 0, c[30] ?? 0, 3)
      : encodeTriples(c, SHA512_ORDER) + b64From24(0, 0, c[63] ?? 0, 2);
  const prefix = rounds === undefined ? '' : `rounds=${r}$`;
  return `$${kind}$${prefix}${s.toString('utf8')}$${body}`;
}

export type HtpasswdCheck = { ok: boolean; unsupported?: string };

/** Verifies `password` against one htpasswd hash, as passlib's htpasswd context does. */
export function verifyHtpasswdHash(password: string, hash: string): HtpasswdCheck {
  let m = /^\$(apr1|1)\$([^$]{0,8})\$[./0-9A-Za-z]{22}$/.exec(hash);
  if (m) {
    const magic = m[1] === 'apr1' ? '$apr1$' : '$1$';
    return { ok: safeEqual(md5Crypt(password, m[2] ?? '', magic), hash) };
  }
  m = /^\$([56])\$(?:rounds=(\d+)\$)?([^$]{0,16})\$[./0-9A-Za-z]+$/.exec(hash);
  if (m) {
    const rounds = m[2] === undefined ? undefined : Number(m[2]);
    return { ok: safeEqual(shaCrypt(password, m[3] ?? '', m[1] as '5' | '6', rounds), hash) };
  }
  if (hash.startsWith('{SHA}')) {
    const digest = createHash('sha1').update(password, 'utf8').digest('base64');
    return { ok: safeEqual(`{SHA}${digest}`, hash) };
  }
  if (/^\$2[abxy]?\$/.test(hash)) return { ok: false, unsupported: 'bcrypt' };
  if (/^[./0-9A-Za-z]{13}$/.test(hash)) return { ok: false, unsupported: 'des_crypt' };
  return { ok: safeEqual(password, hash) };
}

/** Apache htdigest: `md5(user:realm:password)` in hex. */
export function htdigestHash(user: string, realm: string, password: string): string {
  return createHash('md5').update(`${user}:${realm}:${password}`, 'utf8').digest('hex');
}
