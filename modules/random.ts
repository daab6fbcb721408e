/**
 * Salt's `random` execution module (`salt/modules/mod_random.py`): hashes, encodings, random
 * strings and numbers, and /etc/shadow password hashes (through `openssl passwd`, the password
 * on its standard input).
 */
import { execFileSync } from 'node:child_process';
import { createHash, getHashes, randomInt } from 'node:crypto';
import { defineFunction, defineModule, SALT_ERR_EXEC_VALUE, SALT_ERR_INVOCATION } from '../kernel/index.js';
import { PY_HASH_NAMES } from '../kernel/util.js';
import { pyFlag, pyInt } from './_coerce.js';
import { pythonError } from './_py-exception.js';
import { cryptSalt, securePassword } from './_random-chars.js';
import { PyRandom, pySeedOf } from './_random-mt.js';

/** Salt's `salt.utils.data.hash`: the hex digest of the text's UTF-8 bytes. */
export function hexHash(value: unknown, algorithm: string): string {
  const name = PY_HASH_NAMES[algorithm] ?? algorithm;
  if (!getHashes().includes(name) || algorithm.includes('-')) {
    throw new SALT_ERR_EXEC_VALUE('You must specify a valid algorithm.');
  }
  const data = value instanceof Uint8Array ? value : Buffer.from(String(value), 'utf8');
  return createHash(name).update(data).digest('hex');
}

/** openssl's `passwd` switch per Salt algorithm name. */
const OPENSSL_SWITCH: Readonly<Record<string, string>> = { sha512: '-6', sha256: '-5', md5: '-1' };

/** Salt's `gen_hash`: a crypt(3) hash of `password` (random when absent) with `salt`. */
export function shadowHash(
  salt: string | null | undefined,
  password: string | null | undefined,
  algorithm: string,
) {
  const sw = OPENSSL_SWITCH[algorithm];
  if (!sw) {
    throw new SALT_ERR_INVOCATION(
      `Cannot hash using '${algorithm}' hash algorithm. Natively supported algorithms are: ['sha512', 'sha256', 'md5'].`,
    );
  }
  const pw = password ?? securePassword();
  const s = salt ?? cryptSalt(algorithm === 'md5' ? 8 : 16);
  const out = execFileSync('openssl', ['passwd', sw, '-salt', s, '-stdin'], { input: `${pw}\n` });
  return out.toString('utf8').trim();
}

const text = (z: typeof import('zod').z) => z.union([z.string(), z.number(), z.boolean()]).transform(String);

export default defineModule({
  name: 'random',
  doc: 'Provides access to randomness generators.',
  functions: {
    hash: defineFunction({
      args: (z) => z.object({ value: text(z), algorithm: z.string().default('sha512') }),
      doc: `Encodes a value with the specified encoder.

value: the value to be hashed.
algorithm: the algorithm to use (sha512); any algorithm hashlib supports.

CLI Example:

    salt '*' random.hash 'I am a string' md5`,
      inline: true,
      run: (_ctx, a) => hexHash(a.value, a.algorithm ?? 'sha512'),
    }),
    str_encode: defineFunction({
      args: (z) => z.object({ value: text(z), encoder: z.string().default('base64') }),
      doc: `Encodes a value with the specified encoder.

value: the value to be encoded.
encoder: the encoder to use (base64).

CLI Example:

    salt '*' random.str_encode 'I am a new string' base64`,
      inline: true,
      run: (_ctx, a) => {
        const encoder = a.encoder ?? 'base64';
        if (encoder === 'base64') return Buffer.from(a.value, 'utf8').toString('base64');
        throw new SALT_ERR_INVOCATION('Value must be an encode-able string');
      },
    }),
    get_str: defineFunction({
      args: (z) =>
        z.object({
          length: pyInt(z).default(20),
          chars: z.string().nullable().optional(),
          lowercase: pyFlag(z, true),
          uppercase: pyFlag(z, true),
          digits: pyFlag(z, true),
          punctuation: pyFlag(z, true),
          whitespace: pyFlag(z, false),
          printable: pyFlag(z, false),
        }),
      doc: `Returns a random string of the specified length.

length: 20 by default.
chars: string with the characters to choose from (overrides the classes below).
lowercase, uppercase, digits, punctuation: use those characters (True each).
whitespace: use whitespace characters (False).
printable: use all printable characters (False).

CLI Example:

    salt '*' random.get_str 128
    salt '*' random.get_str 128 chars='abc123.!()'`,
      inline: true,
      run: (_ctx, a) => securePassword({ ...a, length: a.length ?? 20 }),
    }),
    shadow_hash: defineFunction({
      args: (z) =>
        z.object({
          crypt_salt: text(z).nullable().optional(),
          password: text(z).nullable().optional(),
          algorithm: z.string().default('sha512'),
        }),
      doc: `Generates a salted hash suitable for /etc/shadow.

crypt_salt: salt to be used in the hash (random when not given).
password: value to be salted and hashed (random when not given).
algorithm: hash algorithm to use: sha512 (default), sha256 or md5.

CLI Example:

    salt '*' random.shadow_hash 'My5alT' 'MyP@asswd' md5`,
      run: (_ctx, a) => shadowHash(a.crypt_salt, a.password, a.algorithm ?? 'sha512'),
    }),
    rand_int: defineFunction({
      args: (z) =>
        z.object({ start: pyInt(z).default(1), end: pyInt(z).default(10), seed: z.unknown().optional() }),
      doc: `Returns a random integer number between the start and end number.

start: any valid integer number (1).
end: any valid integer number (10).
seed: optional hashable object (accepted; tsalt's numbers are not Python's for a seed).

CLI Example:

    salt '*' random.rand_int 1 10`,
      inline: true,
      run: (_ctx, a) => {
        const start = a.start ?? 1;
        const end = a.end ?? 10;
        if (end < start)
          throw new SALT_ERR_EXEC_VALUE(
            `empty range for randrange() (${start}, ${end + 1}, ${end + 1 - start})`,
          );
        return randomInt(start, end + 1);
      },
    }),
    seed: defineFunction({
      args: (z) => z.object({ range: pyInt(z).default(10), hash: z.unknown().optional() }),
      doc: `Returns a random number within a range, the same for the same hash (Python's generator, seeded as Salt seeds it).

range: any valid integer number (10).
hash: any hashable object; the minion's id when omitted or None.

CLI Example:

    salt '*' random.seed 10 hash=None`,
      inline: true,
      run: (ctx, a) => {
        const range = a.range ?? 10;
        if (range <= 0) throw pythonError('ValueError', 'empty range for randrange()');
        const seed = pySeedOf(a.hash ?? String(ctx.grains.id ?? ctx.id));
        const n = new PyRandom(seed).randbelow(BigInt(range));
        return Number(n);
      },
    }),
    shuffle: defineFunction({
      args: (z) => z.object({ value: z.unknown(), seed: z.unknown().optional() }),
      doc: `Return a shuffled copy of an input list (or of a string's characters).

CLI Example:

    salt '*' random.shuffle '["one", "two", "three"]'`,
      inline: true,
      run: (_ctx, a) => {
        const out = Array.isArray(a.value) ? [...a.value] : [...String(a.value)];
        for (let i = out.length - 1; i > 0; i--) {
          const j = randomInt(i + 1);
          [out[i], out[j]] = [out[j], out[i]];
        }
        return out;
      },
    }),
    sample: defineFunction({
      args: (z) => z.object({ value: z.unknown(), size: pyInt(z), seed: z.unknown().optional() }),
      doc: `Return a given sample size from a list.

CLI Example:

    salt '*' random.sample '["one", "two"]' 1`,
      inline: true,
      run: (_ctx, a) => {
        const pool = Array.isArray(a.value) ? [...a.value] : [...String(a.value)];
        if (a.size < 0 || a.size > pool.length)
          throw new SALT_ERR_EXEC_VALUE('Sample larger than population or is negative');
        const out: unknown[] = [];
        for (let i = 0; i < a.size; i++) out.push(pool.splice(randomInt(pool.length), 1)[0]);
        return out;
      },
    }),
  },
});
