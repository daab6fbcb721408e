/**
 * Salt's `tls` module through a real masterless `salt-call --local`: a CA, a request, a signed
 * certificate, revocation, and what `openssl` says of the files.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { localCaller } from '../support/local-call.js';

const root = mkdtempSync(join(tmpdir(), 'tsalt-tls-'));
const call = localCaller(root, 'tls-test');
const pki = join(root, 'pki');
const openssl = (...args: string[]) => execFileSync('openssl', args, { encoding: 'utf8' });

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('tls execution module', () => {
  it('writes a self-signed certificate where salt-api docs expect it', async () => {
    const r = await call('tls.create_self_signed_cert', `cacert_path=${pki}`);
    expect(r.local).toBe(
      `Created Private Key: "${pki}/tls/certs/localhost.key" Created Certificate: "${pki}/tls/certs/localhost.crt"`,
    );
    expect(statSync(`${pki}/tls/certs/localhost.key`).mode & 0o777).toBe(0o600);
    const text = openssl('x509', '-text', '-noout', '-in', `${pki}/tls/certs/localhost.crt`);
    expect(text).toContain('Subject: C = US, ST = Utah, L = Salt Lake City, O = SaltStack, CN = localhost');
    expect(text).toContain('Public-Key: (2048 bit)');
    expect((await call('tls.create_self_signed_cert', `cacert_path=${pki}`)).local).toBe(
      'Certificate "localhost" already exists',
    );
  }, 60_000);

  it('runs a CA: request, signature, validation, revocation', async () => {
    expect((await call('tls.create_ca', 'koji', `cacert_path=${pki}`)).local).toBe(
      `Created Private Key: "${pki}/koji/koji_ca_cert.key" Created CA "koji": "${pki}/koji/koji_ca_cert.crt"`,
    );
    const ca = openssl('x509', '-text', '-noout', '-in', `${pki}/koji/koji_ca_cert.crt`);
    expect(ca).toMatch(/Basic Constraints: critical\n\s+CA:TRUE, pathlen:0/);
    expect(ca).toMatch(/Key Usage: critical\n\s+Certificate Sign, CRL Sign/);
    expect((await call('tls.ca_exists', 'koji', `cacert_path=${pki}`)).local).toBe(true);
    await call(
      'tls.create_csr',
      'koji',
      'CN=test_system',
      `cacert_path=${pki}`,
      'subjectAltName=["DNS:test_system"]',
    );
    expect((await call('tls.create_ca_signed_cert', 'koji', 'test_system', `cacert_path=${pki}`)).local).toBe(
      `Created Certificate for "test_system": "${pki}/koji/certs/test_system.crt"`,
    );
    const crt = `${pki}/koji/certs/test_system.crt`;
    expect(openssl('verify', '-CAfile', `${pki}/koji/koji_ca_cert.crt`, crt)).toContain('OK');
    const info = (await call('tls.cert_info', crt)).local as Record<string, unknown>;
    expect(info.extensions).toEqual({
      basicConstraints: 'CA:FALSE',
      extendedKeyUsage: 'TLS Web Server Authentication',
      keyUsage: 'Digital Signature, Key Encipherment',
      subjectAltName: 'DNS:test_system',
    });
    expect(info.subject_alt_names).toEqual(['test_system']);
    await call('tls.create_empty_crl', 'koji', `cacert_path=${pki}`);
    const crl = `${pki}/koji/crl.pem`;
    const revoked = await call('tls.revoke_cert', 'koji', 'test_system', `cacert_path=${pki}`);
    expect(String(revoked.local)).toMatch(
      /^Revoked Certificate: ".*test_system.crt", serial number: [0-9A-F]+$/,
    );
    expect(openssl('crl', '-text', '-noout', '-in', crl)).toContain('Revocation Date');
  }, 120_000);
});
