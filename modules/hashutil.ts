/**
 * Salt's `hashutil` execution module: digests, base64 in its two Python flavours (one line, or
 * lines of 76 characters each ending in a newline), HMAC checks and files through them.
 */
import { createHmac, getHashes, timingSafeEqual } from 'node:crypto';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { defineFunction, defineModule, SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import { hexHash } from './random.js';

const text = (z: typeof import('zod').z) => z.union([z.string(), z.number(), z.boolean()]).transform(String);

const bytes = (v: string | Uint8Array): Buffer =>
  typeof v === 'string' ? Buffer.from(v, 'utf8') : Buffer.from(v);

/** The algorithms `digest` and `digest_file` take. */
const DIGESTS = new Set(['md5', 'sha256', 'sha512']);

function digest(v: string | Uint8Array, checksum: string): string {
  if (!DIGESTS.has(checksum)) throw new SALT_ERR_EXEC_COMMAND(`Hash func '${checksum}' is not supported.`);
  return hexHash(v, checksum);
}

/** Python's `base64.encodebytes`: 76 characters a line, every line ending in a newline. */
export function encodeLines(data: Uint8Array): string {
  const b64 = Buffer.from(data).toString('base64');
  let out = '';
  for (let i = 0; i < b64.length; i += 76) out += `${b64.slice(i, i + 76)}\n`;
  return out;
}

/** Decoded bytes as text when they are UTF-8, else the bytes (Salt's `to_unicode` fallback). */
function textOrBytes(data: Buffer): string | Buffer {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    return data;
  }
}

const cli = (example: string) => `\n\nCLI Example:\n\n    salt '*' ${example}`;

export default defineModule({
  name: 'hashutil',
  doc: 'Hashing and encoding functions: digests, base64 and HMAC signatures.',
  functions: {
    digest: defineFunction({
      args: (z) => z.object({ instr: text(z), checksum: z.string().default('md5') }),
      doc: `Return a checksum digest for a string.

instr: the string.
checksum: md5 (the default), sha256 or sha512.${cli("hashutil.digest 'get salted'")}`,
      inline: true,
      run: (_ctx, a) => digest(a.instr, a.checksum ?? 'md5'),
    }),
    digest_file: defineFunction({
      args: (z) => z.object({ infile: z.string(), checksum: z.string().default('md5') }),
      doc: `Return a checksum digest for a file's content.

infile: the file's path.
checksum: md5 (the default), sha256 or sha512.${cli('hashutil.digest_file /path/to/file')}`,
      run: async (_ctx, a) => {
        const isFile = await stat(a.infile).then(
          (s) => s.isFile(),
          () => false,
        );
        if (!isFile) throw new SALT_ERR_EXEC_COMMAND(`File path '${a.infile}' not found.`);
        return digest(await readFile(a.infile), a.checksum ?? 'md5');
      },
    }),
    base64_b64encode: defineFunction({
      args: (z) => z.object({ instr: text(z) }),
      doc: `Encode a string as base64 on one line (no newlines in the output).${cli("hashutil.base64_b64encode 'get salted'")}`,
      inline: true,
      run: (_ctx, a) => bytes(a.instr).toString('base64'),
    }),
    base64_b64decode: defineFunction({
      args: (z) => z.object({ instr: text(z) }),
      doc: `Decode a base64-encoded string: text when the result is UTF-8, bytes otherwise.${cli("hashutil.base64_b64decode 'Z2V0IHNhbHRlZA=='")}`,
      inline: true,
      run: (_ctx, a) => textOrBytes(Buffer.from(a.instr, 'base64')),
    }),
    base64_encodestring: defineFunction({
      args: (z) => z.object({ instr: text(z) }),
      doc: `Encode a string as base64 in lines of 76 characters, each ending in a newline.${cli("hashutil.base64_encodestring 'get salted'")}`,
      inline: true,
      run: (_ctx, a) => encodeLines(bytes(a.instr)),
    }),
    base64_decodestring: defineFunction({
      args: (z) => z.object({ instr: text(z) }),
      doc: `Decode base64 written in lines: text when the result is UTF-8, bytes otherwise.${cli("hashutil.base64_decodestring 'Z2V0IHNhbHRlZA==\\n'")}`,
      inline: true,
      run: (_ctx, a) => textOrBytes(Buffer.from(a.instr, 'base64')),
    }),
    base64_encodefile: defineFunction({
      args: (z) => z.object({ fname: z.string() }),
      doc: `Read a file and return its content as base64 in lines of 76 characters (for a pillar value
that the file.decode state writes back).${cli('hashutil.base64_encodefile /path/to/binary_file')}`,
      run: async (_ctx, a) => encodeLines(await readFile(a.fname)),
    }),
    base64_decodefile: defineFunction({
      args: (z) => z.object({ instr: z.string(), outfile: z.string() }),
      doc: `Decode a base64-encoded string and write the bytes to a file; True.${cli("hashutil.base64_decodefile instr='Z2V0IHNhbHRlZAo=' outfile='/path/to/binary_file'")}`,
      run: async (_ctx, a) => {
        await writeFile(a.outfile, Buffer.from(a.instr, 'base64'));
        return true;
      },
    }),
    md5_digest: defineFunction({
      args: (z) => z.object({ instr: text(z) }),
      doc: `The md5 hex digest of a string.${cli("hashutil.md5_digest 'get salted'")}`,
      inline: true,
      run: (_ctx, a) => hexHash(a.instr, 'md5'),
    }),
    sha256_digest: defineFunction({
      args: (z) => z.object({ instr: text(z) }),
      doc: `The sha256 hex digest of a string.${cli("hashutil.sha256_digest 'get salted'")}`,
      inline: true,
      run: (_ctx, a) => hexHash(a.instr, 'sha256'),
    }),
    sha512_digest: defineFunction({
      args: (z) => z.object({ instr: text(z) }),
      doc: `The sha512 hex digest of a string.${cli("hashutil.sha512_digest 'get salted'")}`,
      inline: true,
      run: (_ctx, a) => hexHash(a.instr, 'sha512'),
    }),
    hmac_signature: defineFunction({
      args: (z) => z.object({ string: text(z), shared_secret: text(z), challenge_hmac: text(z) }),
      doc: `Check a base64 HMAC-SHA256 signature of a string under a shared secret: True or False.${cli("hashutil.hmac_signature 'get salted' 'shared secret' 'eBWf9bstXg+NiP5AOwppB5HMvZiYMPzEM9W5YMm/AmQ='")}`,
      inline: true,
      run: (_ctx, a) =>
        createHmac('sha256', bytes(a.shared_secret)).update(bytes(a.string)).digest('base64') ===
        a.challenge_hmac,
    }),
    hmac_compute: defineFunction({
      args: (z) => z.object({ string: text(z), shared_secret: text(z) }),
      doc: `The hex HMAC-SHA256 digest of a string under a secret.${cli("hashutil.hmac_compute 'get salted' 'shared secret'")}`,
      inline: true,
      run: (_ctx, a) => createHmac('sha256', bytes(a.shared_secret)).update(bytes(a.string)).digest('hex'),
    }),
    github_signature: defineFunction({
      args: (z) => z.object({ string: text(z), shared_secret: text(z), challenge_hmac: text(z) }),
      doc: `Check a GitHub webhook signature (\`sha1=<hex>\` or \`sha256=<hex>\`, the X-Hub-Signature
header) of a body under the hook's secret: True or False.${cli("hashutil.github_signature '{\"ref\":....} ' 'shared secret' 'sha1=bc6550fc290acf5b42283fa8deaf55cea0f8c206'")}`,
      inline: true,
      run: (_ctx, a) => {
        const parts = a.challenge_hmac.split('=');
        if (parts.length !== 2) {
          throw new SALT_ERR_EXEC_COMMAND(
            `The challenge must read '<hash>=<hex digest>': ${a.challenge_hmac}`,
          );
        }
        const [kind = '', challenge = ''] = parts;
        if (!getHashes().includes(kind)) throw new SALT_ERR_EXEC_COMMAND(`Unknown hash type '${kind}'.`);
        const mine = Buffer.from(
          createHmac(kind, bytes(a.shared_secret)).update(bytes(a.string)).digest('hex'),
        );
        const theirs = Buffer.from(challenge);
        return mine.length === theirs.length && timingSafeEqual(mine, theirs);
      },
    }),
  },
});
