/**
 * Python's `random` generator, enough of it to give the numbers Salt's `random.seed` gives: the
 * Mersenne Twister (MT19937) seeded as CPython seeds it (`init_by_array` over the seed's 32-bit
 * words; a text seed first widened with its SHA-512 digest, `random.seed(a, version=2)`), and
 * `randrange(n)` drawn with `getrandbits` and rejection, as `_randbelow_with_getrandbits`.
 */
import { createHash } from 'node:crypto';
import { SALT_ERR_INVOCATION } from '../kernel/index.js';

const N = 624;
const M = 397;

/** A seeded MT19937 stream of 32-bit words. */
export class PyRandom {
  readonly #mt = new Uint32Array(N);
  #index = N;

  constructor(seed: string | bigint) {
    this.#seedByArray(wordsOf(typeof seed === 'string' ? textSeed(seed) : seed < 0n ? -seed : seed));
  }

  #initGenrand(s: number): void {
    const mt = this.#mt;
    mt[0] = s >>> 0;
    for (let i = 1; i < N; i++) {
      const prev = mt[i - 1]! ^ (mt[i - 1]! >>> 30);
      mt[i] = (Math.imul(1812433253, prev) + i) >>> 0;
    }
  }

  #seedByArray(key: readonly number[]): void {
    const mt = this.#mt;
    this.#initGenrand(19650218);
    let i = 1;
    let j = 0;
    for (let k = Math.max(N, key.length); k > 0; k--) {
      const prev = mt[i - 1]! ^ (mt[i - 1]! >>> 30);
      mt[i] = ((mt[i]! ^ Math.imul(prev, 1664525)) + key[j]! + j) >>> 0;
      i++;
      j++;
      if (i >= N) {
        mt[0] = mt[N - 1]!;
        i = 1;
      }
      if (j >= key.length) j = 0;
    }
    for (let k = N - 1; k > 0; k--) {
      const prev = mt[i - 1]! ^ (mt[i - 1]! >>> 30);
      mt[i] = ((mt[i]! ^ Math.imul(prev, 1566083941)) - i) >>> 0;
      i++;
      if (i >= N) {
        mt[0] = mt[N - 1]!;
        i = 1;
      }
    }
    mt[0] = 0x80000000;
    this.#index = N;
  }

  #twist(): void {
    const mt = this.#mt;
    for (let kk = 0; kk < N; kk++) {
      const y = (mt[kk]! & 0x80000000) | (mt[(kk + 1) % N]! & 0x7fffffff);
      mt[kk] = (mt[(kk + M) % N]! ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0)) >>> 0;
    }
    this.#index = 0;
  }

  /** CPython's `genrand_uint32`. */
  uint32(): number {
    if (this.#index >= N) this.#twist();
    let y = this.#mt[this.#index++]!;
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  /** Python's `getrandbits(k)`: 32-bit words, least significant first, the last one shifted down. */
  getrandbits(k: number): bigint {
    if (k <= 32) return k === 0 ? 0n : BigInt(this.uint32() >>> (32 - k));
    let out = 0n;
    let shift = 0n;
    for (let left = k; left > 0; left -= 32) {
      let r = this.uint32();
      if (left < 32) r >>>= 32 - left;
      out |= BigInt(r) << shift;
      shift += 32n;
    }
    return out;
  }

  /** Python's `randrange(n)` for n > 0. */
  randbelow(n: bigint): bigint {
    const k = n.toString(2).length;
    let r = this.getrandbits(k);
    while (r >= n) r = this.getrandbits(k);
    return r;
  }
}

/** `random.seed(text)`: the UTF-8 bytes followed by their SHA-512 digest, read as a big-endian integer. */
function textSeed(text: string): bigint {
  const bytes = Buffer.from(text, 'utf8');
  const all = Buffer.concat([bytes, createHash('sha512').update(bytes).digest()]);
  return BigInt(`0x${all.toString('hex')}`);
}

/** A non-negative integer as 32-bit words, least significant first (`[0]` for zero). */
function wordsOf(n: bigint): number[] {
  const words: number[] = [];
  for (let v = n; v > 0n; v >>= 32n) words.push(Number(v & 0xffffffffn));
  return words.length > 0 ? words : [0];
}

/** CPython's hash modulus for numbers (`sys.hash_info.modulus`, 2**61 - 1). */
const HASH_MODULUS = (1n << 61n) - 1n;

/** `hash(x)` of a finite Python float: its exact value reduced modulo 2**61 - 1, sign kept. */
function floatHash(x: number): bigint {
  if (Number.isInteger(x)) return BigInt(x) % HASH_MODULUS;
  let num = Math.abs(x);
  let exp = 0;
  while (!Number.isInteger(num)) {
    num *= 2;
    exp++;
  }
  // num / 2**exp: multiply by the inverse of 2**exp, which is 2**(61 - exp mod 61)
  const h = (BigInt(num) * (1n << BigInt((61 - (exp % 61)) % 61))) % HASH_MODULUS;
  const signed = x < 0 ? -h : h;
  return signed === -1n ? -2n : signed;
}

/**
 * What `random.seed(value)` seeds with: text as text, an int (or bool) as itself, a float by its
 * hash. Anything else is Python's TypeError.
 */
export function pySeedOf(value: unknown): string | bigint {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 1n : 0n;
  if (typeof value === 'bigint') return value;
  const num = typeof value === 'object' && value !== null && 'value' in value ? value.value : value;
  if (typeof num === 'number' && Number.isFinite(num)) {
    return Number.isInteger(num) && num === value ? BigInt(num) : floatHash(num);
  }
  throw new SALT_ERR_INVOCATION(
    'The only supported seed types are: None,\nint, float, str, bytes, and bytearray.',
  );
}
