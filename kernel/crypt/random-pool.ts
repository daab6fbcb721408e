/**
 * Random bytes for the per-message values of the request and publish channels (AES-CBC IVs,
 * request nonces), drawn from a block of CSPRNG output instead of one OpenSSL call each: a
 * `randomBytes(16)` costs ~2.2 µs on this class of machine (a trip into OpenSSL's DRBG per
 * message), a slice of the pool ~0.2 µs. The master pays one per reply, a minion one IV and one
 * nonce per request.
 *
 * Every slice is handed out once and is as unpredictable as `randomBytes` output (it is that
 * output). An IV is a view into the pool, valid until the pool is refilled: callers copy it at
 * once (the Crypticle writes it into its output and the cipher reads it synchronously). The
 * pool is per thread (module state per isolate).
 */
import { randomFillSync } from 'node:crypto';

const SLICE = 16;
const POOL_BYTES = SLICE * 256;

const pool = Buffer.allocUnsafeSlow(POOL_BYTES);
let next = POOL_BYTES;

function take(): number {
  if (next === POOL_BYTES) {
    randomFillSync(pool);
    next = 0;
  }
  const at = next;
  next += SLICE;
  return at;
}

/** 16 fresh random bytes, a view valid until 255 more slices have been drawn. */
export function freshIv(): Buffer {
  const at = take();
  return pool.subarray(at, at + SLICE);
}

/** 32 hex characters of fresh randomness (128 bits): a request nonce, as `uuid4().hex` is in Salt. */
export function freshNonce(): string {
  const at = take();
  return pool.toString('hex', at, at + SLICE);
}
