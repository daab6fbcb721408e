import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fakeCtx, invoke } from './_fake-ctx.js';
import x509 from './x509.js';

const kw = (o: Record<string, unknown>) => ({ __kwarg__: true, ...o });
const ctx = fakeCtx({});
const call = async (fun: string, arg: unknown[] = []) => (await invoke(x509, fun, arg, ctx)).value;
const dir = mkdtempSync(join(tmpdir(), 'x509-crl-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const openssl = (...args: string[]) =>
  execFileSync('openssl', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const p = (name: string) => join(dir, name);

openssl(
  'req',
  '-x509',
  '-newkey',
  'rsa:2048',
  '-nodes',
  '-keyout',
  p('ca.key'),
  '-out',
  p('ca.crt'),
  '-subj',
  '/CN=CRL Test CA',
  '-days',
  '30',
  '-addext',
  'keyUsage=critical,keyCertSign,cRLSign',
);
openssl(
  'req',
  '-newkey',
  'rsa:2048',
  '-nodes',
  '-keyout',
  p('leaf.key'),
  '-out',
  p('leaf.csr'),
  '-subj',
  '/CN=leaf',
);
openssl(
  'x509',
  '-req',
  '-in',
  p('leaf.csr'),
  '-CA',
  p('ca.crt'),
  '-CAkey',
  p('ca.key'),
  '-out',
  p('leaf.crt'),
  '-days',
  '10',
  '-set_serial',
  '0x1234ab',
);
openssl(
  'x509',
  '-req',
  '-in',
  p('leaf.csr'),
  '-CA',
  p('ca.crt'),
  '-CAkey',
  p('ca.key'),
  '-out',
  p('other.crt'),
  '-days',
  '10',
  '-set_serial',
  '99',
);

describe('x509.create_crl', () => {
  it('revokes a certificate so that openssl verify -crl_check refuses it, and reads back as Salt', async () => {
    const pem = String(
      await call('create_crl', [
        kw({
          signing_private_key: p('ca.key'),
          signing_cert: p('ca.crt'),
          revoked: [
            {
              certificate: p('leaf.crt'),
              revocation_date: '2025-05-05 10:00:00',
              extensions: { CRLReason: 'keyCompromise', invalidityDate: '2025-05-01 00:00:00' },
            },
          ],
          extensions: { cRLNumber: 3, authorityKeyIdentifier: 'keyid' },
          days_valid: 7,
        }),
      ]),
    );
    writeFileSync(p('ca.crl'), pem);
    const text = openssl('crl', '-in', p('ca.crl'), '-text', '-noout', '-CAfile', p('ca.crt'));
    expect(text).toContain('Serial Number: 1234AB');
    expect(text).toContain('Key Compromise');
    expect(text).toContain('X509v3 CRL Number: \n                3');
    expect(text).toMatch(/Revocation Date: May {2}5 10:00:00 2025 GMT/);
    const verify = (cert: string) => {
      try {
        return openssl('verify', '-crl_check', '-CAfile', p('ca.crt'), '-CRLfile', p('ca.crl'), cert);
      } catch (e) {
        return String((e as { stdout?: string }).stdout ?? '') + String((e as { stderr?: string }).stderr);
      }
    };
    expect(verify(p('leaf.crt'))).toContain('certificate revoked');
    expect(verify(p('other.crt'))).toContain(': OK');
    const read = (await call('read_crl', [p('ca.crl')])) as Record<string, Record<string, unknown>>;
    expect(read.revoked_certificates?.['1234AB']).toEqual({
      revocation_date: '2025-05-05 10:00:00',
      extensions: {
        CRLReason: { critical: false, value: 'keyCompromise' },
        invalidityDate: { critical: false, value: '2025-05-01 00:00:00' },
      },
    });
    expect(await call('verify_crl', [p('ca.crl'), p('ca.crt')])).toBe(true);
  });

  it('leaves out expired certificates unless include_expired, and writes DER to a path', async () => {
    const args = {
      signing_private_key: p('ca.key'),
      signing_cert: p('ca.crt'),
      revoked: [{ serial_number: 5, not_after: '2020-01-01 00:00:00' }, { serial_number: '0a:0b' }],
    };
    const out = await call('create_crl', [kw({ ...args, encoding: 'der', path: p('d.crl') })]);
    expect(out).toBe(`CRL written to ${p('d.crl')}`);
    const text = openssl('crl', '-inform', 'DER', '-in', p('d.crl'), '-text', '-noout');
    expect(text).toContain('Serial Number: 0A0B');
    expect(text).not.toContain('Serial Number: 05');
    const all = String(await call('create_crl', [kw({ ...args, include_expired: true })]));
    writeFileSync(p('all.crl'), all);
    expect(openssl('crl', '-in', p('all.crl'), '-text', '-noout')).toContain('Serial Number: 05');
  });

  it('refuses bad input with Salt messages', async () => {
    const base = { signing_private_key: p('ca.key'), signing_cert: p('ca.crt') };
    await expect(
      call('create_crl', [kw({ ...base, revoked: [{ revocation_date: '2025-01-01 00:00:00' }] })]),
    ).rejects.toThrow('Need serial_number or certificate');
    await expect(
      call('create_crl', [kw({ ...base, revoked: [], extensions: { cRLNumber: 'abc' } })]),
    ).rejects.toThrow('cRLNumber must be an integer and must be marked as non-critical');
    await expect(call('create_crl', [kw({ ...base, revoked: [], foo: 1 })])).rejects.toThrow(
      "Unrecognized keyword arguments: ['foo']",
    );
    await expect(call('create_crl', [kw({ signing_private_key: p('ca.key'), revoked: [] })])).rejects.toThrow(
      'A CRL must have an issuer name',
    );
  });
});
