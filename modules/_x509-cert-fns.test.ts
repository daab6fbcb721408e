import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fakeCtx, invoke } from './_fake-ctx.js';
import x509 from './x509.js';

const kw = (o: Record<string, unknown>) => ({ __kwarg__: true, ...o });
const ctx = fakeCtx({
  call: async (fun: string, args?: readonly unknown[]) =>
    fun === 'pillar.get' || fun === 'config.get' ? args?.[1] : null,
});
const call = async (fun: string, arg: unknown[] = []) => (await invoke(x509, fun, arg, ctx)).value;
const dir = mkdtempSync(join(tmpdir(), 'x509-cert-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const openssl = (...args: string[]) =>
  execFileSync('openssl', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const file = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

// An Ed25519 key signs deterministically: with a fixed serial and validity Salt 3006.18 made
// exactly this certificate from the same arguments (salt-call --local x509.create_certificate).
const ED_KEY = file(
  'ed.key',
  '-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEICeR5HAboifoqe6nqzMTVxsqYvNcWycJzxBDwloB58DS\n-----END PRIVATE KEY-----\n',
);
const SALT_CERT = `-----BEGIN CERTIFICATE-----
MIICAjCCAbSgAwIBAgICBNIwBQYDK2VwMCsxCzAJBgNVBAYTAkRFMQ0wCwYDVQQK
DARBY21lMQ0wCwYDVQQDDARlZGNhMB4XDTI2MDEwMTAwMDAwMFoXDTMwMDEwMTAw
MDAwMFowKzELMAkGA1UEBhMCREUxDTALBgNVBAoMBEFjbWUxDTALBgNVBAMMBGVk
Y2EwKjAFBgMrZXADIQCNE6Vq5rcJhgWt9GowqJhzJ79hhU76b0xIaF6KEmCE2KOB
+zCB+DASBgNVHRMBAf8ECDAGAQH/AgEBMA4GA1UdDwEB/wQEAwIBhjAiBgNVHSUE
GzAZBggrBgEFBQcDAQYIKwYBBQUHAwIGAyoDBDAdBgNVHQ4EFgQUZbvnr1cln9Bp
M1IFGaGGzELskjYwHwYDVR0jBBgwFoAUZbvnr1cln9BpM1IFGaGGzELskjYwbgYD
VR0RBGcwZYINYS5leGFtcGxlLmNvbYcECgAAAYcQAAAAAAAAAAAAAAAAAAAAAYEL
YUBiLmV4YW1wbGWGEWh0dHA6Ly94LmV4YW1wbGUvpBwwGjEYMAoGA1UEAwwDZm9v
MAoGA1UECgwDYmFyMAUGAytlcANBAH1nb5Bt7HPJ5znBh3y5Er5yT9uOMfnrzX6J
pCwXHOUeLtl+rVBMutbVJdhuIyVXc4hqJT0I/XrmXyHJpDg9Jwc=
-----END CERTIFICATE-----
`;

describe('x509 certificates', () => {
  it('creates byte for byte the certificate Salt creates from the same arguments', async () => {
    const out = await call('create_certificate', [
      kw({
        signing_private_key: ED_KEY,
        CN: 'edca',
        O: 'Acme',
        C: 'DE',
        basicConstraints: 'critical, CA:true, pathlen:1',
        keyUsage: 'critical, cRLSign, keyCertSign, digitalSignature',
        extendedKeyUsage: 'serverAuth, clientAuth, 1.2.3.4',
        subjectKeyIdentifier: 'hash',
        authorityKeyIdentifier: 'keyid:always',
        subjectAltName:
          'DNS:a.example.com, IP:10.0.0.1, IP:::1, email:a@b.example, URI:http://x.example/, dirName:CN=foo+O=bar',
        serial_number: 1234,
        not_before: '2026-01-01 00:00:00',
        not_after: '2030-01-01 00:00:00',
      }),
    ]);
    expect(out).toBe(SALT_CERT);
  });

  it('signs a CSR with a CA that OpenSSL verifies, and reads it back as Salt does', async () => {
    const caKey = String(await call('create_private_key', [kw({ algo: 'ec' })]));
    const ca = join(dir, 'ca.crt');
    expect(
      await call('create_certificate', [
        kw({
          signing_private_key: caKey,
          CN: 'Test CA',
          basicConstraints: 'critical, CA:true',
          subjectKeyIdentifier: 'hash',
          path: ca,
        }),
      ]),
    ).toBe(`PEM written to ${ca}`);
    const key = join(dir, 'leaf.key');
    await call('create_private_key', [kw({ path: key })]);
    const csr = join(dir, 'leaf.csr');
    await call('create_csr', [
      kw({ private_key: key, CN: 'www.example', subjectAltName: 'DNS:www.example, IP:192.0.2.1', path: csr }),
    ]);
    expect(openssl('req', '-in', csr, '-verify', '-noout')).toBe('');
    const leaf = join(dir, 'leaf.crt');
    await call('create_certificate', [
      kw({
        signing_private_key: caKey,
        signing_cert: ca,
        csr,
        // Salt takes the subject from the arguments, never from the CSR
        CN: 'www.example',
        authorityKeyIdentifier: 'keyid,issuer',
        days_valid: 10,
        path: leaf,
      }),
    ]);
    expect(statSync(leaf).mode & 0o777).toBe(0o600);
    expect(openssl('verify', '-CAfile', ca, leaf)).toBe(`${leaf}: OK\n`);
    const text = openssl('x509', '-in', leaf, '-text', '-noout');
    expect(text).toContain('Issuer: CN = Test CA');
    expect(text).toContain('DNS:www.example, IP Address:192.0.2.1');
    const read = (await call('read_certificate', [leaf])) as Record<string, unknown>;
    expect(read.subject_str).toBe('CN=www.example');
    expect(read.issuer).toEqual({ CN: 'Test CA' });
    expect(read.key_type).toBe('rsa');
    expect(read.signature_algorithm).toBe('ecdsa-with-SHA256');
    expect(read.extensions).toMatchObject({
      subjectAltName: { critical: false, value: ['DNS:www.example', 'IP:192.0.2.1'] },
    });
    expect(await call('verify_signature', [leaf, ca])).toBe(true);
    expect(await call('verify_signature', [leaf])).toBe(false);
    expect(await call('expires', [leaf])).toBe(false);
    expect(await call('expires', [leaf, kw({ days: 11 })])).toBe(true);
    expect(await call('will_expire', [leaf, 5])).toEqual({
      check_days: 5,
      path: leaf,
      cn: 'www.example',
      will_expire: false,
    });
    const chain = String(await call('encode_certificate', [leaf, 'pem', ca]));
    expect(chain.match(/BEGIN CERTIFICATE/g)).toHaveLength(2);
    expect(readFileSync(leaf, 'utf8')).toBe(chain.split('\n-----BEGIN')[0]);
  });

  it('reads the certificate Salt made into the dict Salt reads from it', async () => {
    // Salt's read_certificate of SALT_CERT, keys as salt-call --out json printed them.
    const read = (await call('read_certificate', [SALT_CERT])) as Record<string, unknown>;
    expect(read).toMatchObject({
      version: 3,
      key_size: null,
      key_type: 'ed25519',
      serial_number: '04:D2',
      subject: { C: 'DE', O: 'Acme', CN: 'edca' },
      subject_str: 'CN=edca,O=Acme,C=DE',
      not_before: '2026-01-01 00:00:00',
      not_after: '2030-01-01 00:00:00',
      signature_algorithm: 'ed25519',
    });
    expect((read.extensions as Record<string, unknown>).extendedKeyUsage).toEqual({
      critical: false,
      value: ['serverAuth', 'clientAuth', '1.2.3.4'],
    });
  });

  it('refuses what Salt refuses, with its messages', async () => {
    await expect(call('create_certificate', [kw({ CN: 'x' })])).rejects.toThrow(
      'Creating a certificate locally at least requires a signing private key.',
    );
    await expect(
      call('create_certificate', [kw({ signing_private_key: ED_KEY, digest: 'md5' })]),
    ).rejects.toThrow("Invalid value 'md5' for digest.");
    await expect(
      call('create_certificate', [kw({ signing_private_key: ED_KEY, signing_cert: join(dir, 'ca.crt') })]),
    ).rejects.toThrow('needs public_key, private_key or csr');
    await expect(
      call('create_certificate', [kw({ signing_private_key: ED_KEY, keyUsage: 'encipherOnly' })]),
    ).rejects.toThrow('encipher_only and decipher_only can only be true when key_agreement is true');
    await expect(call('encode_certificate', [SALT_CERT, 'der', SALT_CERT])).rejects.toThrow(
      'Cannot encode a certificate chain in DER',
    );
    // a public_key must be a public key (Salt's load_pubkey), not a private key
    await expect(
      call('create_certificate', [
        kw({ signing_private_key: ED_KEY, signing_cert: join(dir, 'ca.crt'), public_key: ED_KEY }),
      ]),
    ).rejects.toThrow('Could not load PEM-encoded public key.');
    expect(await call('sign_remote_certificate', ['nope', {}])).toEqual({
      data: null,
      errors: ['signing_policy must be specified and defined on signing minion'],
    });
  });
});
