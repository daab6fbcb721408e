/**
 * The x509 states through a real masterless salt-call: a key, a self-signed CA, a CRL with an
 * auto-counted cRLNumber and a CSR; a second run changes nothing; a changed subject re-issues the
 * certificate and a newly revoked serial re-creates the CRL, which openssl checks.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { localCaller } from '../support/local-call.js';

const root = mkdtempSync(join(tmpdir(), 'x509-states-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const call = localCaller(root, 'x509s');
const out = join(root, 'out');
const openssl = (...args: string[]) =>
  execFileSync('openssl', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

function sls(cn: string, serials: number[]): void {
  mkdirSync(join(root, 'srv'), { recursive: true });
  writeFileSync(
    join(root, 'srv', 'pki.sls'),
    `key:
  x509.private_key_managed:
    - name: ${out}/ca.key
    - makedirs: true
cert:
  x509.certificate_managed:
    - name: ${out}/ca.crt
    - signing_private_key: ${out}/ca.key
    - CN: ${cn}
    - basicConstraints: "critical, CA:true"
    - keyUsage: "critical, cRLSign, keyCertSign"
    - days_valid: 30
    - days_remaining: 5
crl:
  x509.crl_managed:
    - name: ${out}/ca.crl
    - signing_private_key: ${out}/ca.key
    - signing_cert: ${out}/ca.crt
    - revoked: ${JSON.stringify(serials.map((s) => ({ serial_number: s })))}
    - extensions: {cRLNumber: auto}
csr:
  x509.csr_managed:
    - name: ${out}/ca.csr
    - private_key: ${out}/ca.key
    - CN: req
`,
  );
}

type Ret = { result: boolean | null; comment: string; changes: Record<string, unknown> };
const byId = (local: unknown, id: string, fun: string): Ret => {
  const all = local as Record<string, Ret>;
  const key = Object.keys(all).find((k) => k.startsWith(`x509_|-${id}_|-`) && k.endsWith(`_|-${fun}`));
  return all[key ?? ''] as Ret;
};

describe('x509 states', () => {
  it('creates, keeps and re-issues as Salt 3006.18 does', async () => {
    sls('State CA', [12]);
    const dry = await call('state.apply', 'pki', 'test=True');
    expect(byId(dry.local, 'cert', 'certificate_managed')).toMatchObject({
      result: null,
      comment: 'The certificate would have been created',
      changes: { created: `${out}/ca.crt` },
    });
    const first = await call('state.apply', 'pki');
    expect(byId(first.local, 'key', 'private_key_managed')).toMatchObject({
      result: true,
      comment: 'The private key has been created',
    });
    expect(byId(first.local, 'crl', 'crl_managed').comment).toBe(
      'The certificate revocation list has been created',
    );
    expect(openssl('verify', '-CAfile', `${out}/ca.crt`, `${out}/ca.crt`)).toContain('OK');
    expect(openssl('crl', '-in', `${out}/ca.crl`, '-noout', '-text', '-CAfile', `${out}/ca.crt`)).toMatch(
      /CRL Number: \n\s+1\n[\s\S]*Serial Number: 0C/,
    );
    const again = await call('state.apply', 'pki');
    for (const [id, fun] of [
      ['key', 'private_key_managed'],
      ['cert', 'certificate_managed'],
      ['crl', 'crl_managed'],
      ['csr', 'csr_managed'],
    ] as const) {
      expect(byId(again.local, id, fun)).toMatchObject({ result: true, changes: {} });
    }
    sls('State CA 2', [12, 13]);
    const third = await call('state.apply', 'pki');
    expect(byId(third.local, 'cert', 'certificate_managed')).toMatchObject({
      comment: 'The certificate has been recreated',
      changes: { subject_name: 'CN=State CA 2' },
    });
    expect(byId(third.local, 'crl', 'crl_managed').changes).toMatchObject({
      revocations: { added: ['0D'], changed: [], removed: [] },
    });
    const text = openssl('crl', '-in', `${out}/ca.crl`, '-noout', '-text');
    expect(text).toMatch(/CRL Number: \n\s+2/);
    expect(text).toContain('Serial Number: 0D');
  }, 120_000);
});
