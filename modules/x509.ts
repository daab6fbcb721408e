/**
 * Salt's `x509` execution module (x509_v2, Salt 3006.18), the key half: create, encode and check
 * private keys, and derive public keys. Keys come from a path, PEM text, `b64:`, hex or base64.
 * Passphrases are arguments only: never logged, never part of a return.
 */
import { defineFunction, defineModule, SALT_ERR_INVOCATION } from '../kernel/index.js';
import { pyInt } from './_coerce.js';
import { certFunctions } from './_x509-cert-fns.js';
import { crlFunctions } from './_x509-crl-fns.js';
import {
  encodePrivateKey,
  generatePrivateKey,
  loadAnyPublicKey,
  loadPrivateKey,
  privateKeySize,
  publicPem,
  samePublicKey,
} from './_x509-keys.js';
import { normalizePem, writeOwnerOnly } from './_x509-pem.js';

const cli = (example: string) => `\n\nCLI Example:\n\n    salt '*' ${example}`;

export default defineModule({
  name: 'x509',
  doc: 'Manage X.509 certificates, CSRs, CRLs, private keys and public keys (Salt x509_v2).',
  functions: {
    create_private_key: defineFunction({
      args: (z) =>
        z.object({
          algo: z.string().default('rsa'),
          keysize: pyInt(z).nullable().optional(),
          passphrase: z.coerce.string().nullable().optional(),
          encoding: z.string().default('pem'),
          pkcs12_encryption_compat: z.boolean().default(false),
          path: z.string().nullable().optional(),
          raw: z.boolean().default(false),
        }),
      // Salt takes and ignores its older keywords (bits, cipher, ...) here
      varkw: true,
      doc: `Create a private key.

algo: rsa (default), ec, ed25519 or ed448.
keysize: rsa 2048 (default), 3072 or 4096; ec 256 (default), 384 or 521.
passphrase: encrypt the key with it.
encoding: pem (default) or der (base64); pkcs12 is not written by tsalt.
path: write the key there (mode 0600) instead of returning it.${cli('x509.create_private_key algo=ec')}`,
      run: (_ctx, a) => {
        const encoding = a.encoding ?? 'pem';
        const key = generatePrivateKey(a.algo ?? 'rsa', a.keysize ?? undefined);
        const out = encodePrivateKey(key, encoding, a.passphrase ?? undefined);
        if (!a.path) {
          if (a.raw) return out;
          return encoding === 'pem' ? out.toString('utf8') : out.toString('base64');
        }
        if (encoding === 'pem') {
          writeOwnerOnly(a.path, normalizePem(out.toString('utf8'), '(?:(RSA|ENCRYPTED) )?PRIVATE KEY'));
          return `PEM written to ${a.path}`;
        }
        writeOwnerOnly(a.path, out);
        return null;
      },
    }),
    encode_private_key: defineFunction({
      args: (z) =>
        z.object({
          private_key: z.string(),
          encoding: z.string().default('pem'),
          passphrase: z.coerce.string().nullable().optional(),
          private_key_passphrase: z.coerce.string().nullable().optional(),
          pkcs12_encryption_compat: z.boolean().default(false),
          raw: z.boolean().default(false),
        }),
      doc: `Encode a private key as PKCS#8 PEM or base64 DER, optionally under a new passphrase.${cli('x509.encode_private_key /etc/pki/my.key der')}`,
      run: (_ctx, a) => {
        const encoding = a.encoding ?? 'pem';
        const key = loadPrivateKey(a.private_key, a.private_key_passphrase ?? undefined);
        const out = encodePrivateKey(key, encoding, a.passphrase ?? undefined);
        if (a.raw) return out;
        return encoding === 'pem' ? out.toString('utf8') : out.toString('base64');
      },
    }),
    get_private_key_size: defineFunction({
      args: (z) => z.object({ private_key: z.string(), passphrase: z.coerce.string().nullable().optional() }),
      doc: `The size in bits of an RSA or EC private key; None for Edwards-curve keys.${cli('x509.get_private_key_size /etc/pki/my.key')}`,
      run: (_ctx, a) => privateKeySize(loadPrivateKey(a.private_key, a.passphrase ?? undefined)),
    }),
    get_public_key: defineFunction({
      args: (z) =>
        z.object({
          key: z.string(),
          passphrase: z.coerce.string().nullable().optional(),
          asObj: z.unknown().optional(),
        }),
      doc: `The PEM public key of a public key, certificate, private key or CSR.${cli('x509.get_public_key /etc/pki/my.key')}`,
      run: (_ctx, a) => publicPem(loadAnyPublicKey(a.key, a.passphrase ?? undefined)),
    }),
    verify_private_key: defineFunction({
      args: (z) =>
        z.object({
          private_key: z.string(),
          public_key: z.string(),
          passphrase: z.coerce.string().nullable().optional(),
        }),
      doc: `Whether a private key belongs to a public key (or a certificate, CSR or another private key's).${cli('x509.verify_private_key /etc/pki/my.key /etc/pki/my.crt')}`,
      run: (_ctx, a) => {
        const priv = loadPrivateKey(a.private_key, a.passphrase ?? undefined);
        return samePublicKey(priv, loadAnyPublicKey(a.public_key));
      },
    }),
    ...certFunctions,
    ...crlFunctions,
    get_pem_entry: defineFunction({
      args: (z) => z.object({ text: z.string(), pem_type: z.string().nullable().optional() }),
      doc: `One PEM entry of a text, reformatted into lines of 64.${cli('x509.get_pem_entry "-----BEGIN CERTIFICATE REQUEST-----MIICyzCC Ar8CAQI...-----END CERTIFICATE REQUEST"')}`,
      inline: true,
      run: (_ctx, a) => {
        if (a.text.length === 0) throw new SALT_ERR_INVOCATION('PEM text not valid:\n');
        return normalizePem(a.text, a.pem_type ?? undefined);
      },
    }),
  },
});
