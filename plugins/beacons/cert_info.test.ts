import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { beaconCtx } from '../../test/support/beacon-ctx.js';
import certInfo, { daysLeft } from './cert_info.js';

const dir = mkdtempSync(join(tmpdir(), 'tsalt-cert-info-beacon-'));

/** A self-signed certificate made by the openssl CLI, valid `days` days. */
function cert(name: string, days: number, subj: string, extra: string[] = []): string {
  const out = join(dir, `${name}.pem`);
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      join(dir, `${name}.key`),
      '-out',
      out,
    ].concat(['-days', String(days), '-subj', subj, ...extra]),
    { stdio: 'ignore' },
  );
  return out;
}
const openssl = (path: string, ...args: string[]) =>
  execFileSync('openssl', ['x509', '-in', path, '-noout', ...args], { encoding: 'utf8' }).trim();

describe('cert_info beacon', () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const soon = cert('soon', 10, '/C=US/O=Probe Org/CN=soon.example', [
    '-addext',
    'subjectAltName=DNS:soon.example,IP:10.0.0.1',
  ]);
  const later = cert('later', 400, '/CN=later.example');

  it("validates as Salt's", () => {
    expect(certInfo.validate?.({ notify_days: 3 })).toBe(
      'Configuration for cert_info beacon must contain files option.',
    );
    expect(certInfo.validate?.({ files: [] })).toBe(true);
  });

  it('counts whole days as Python does (floored)', () => {
    const now = new Date(Date.UTC(2026, 0, 1, 12) + new Date().getTimezoneOffset() * 60_000);
    expect(daysLeft(new Date(Date.UTC(2026, 0, 11, 11)), now)).toBe(9);
    expect(daysLeft(new Date(Date.UTC(2026, 0, 1, 11)), now)).toBe(-1);
  });

  it('reports the certificates within notify_days, as OpenSSL reads them; an unreadable file is logged', async () => {
    const ctx = beaconCtx(join(dir, 'salt'));
    const [ev] = (await certInfo.beacon(ctx, { files: [soon, later, join(dir, 'none.pem')] })) as [
      { certificates: Record<string, unknown>[] },
    ];
    expect(ev.certificates).toHaveLength(1);
    const c = ev.certificates[0]!;
    expect(c).toMatchObject({
      cert_path: soon,
      issuer: 'C="US",O="Probe Org",CN="soon.example"',
      subject_dict: { C: 'US', O: 'Probe Org', CN: 'soon.example' },
      signature_algorithm: 'sha256WithRSAEncryption',
      version: 2,
      has_expired: false,
    });
    expect(
      BigInt(c.serial_number as bigint)
        .toString(16)
        .toUpperCase(),
    ).toBe(openssl(soon, '-serial').replace('serial=', '').replace(/^0+/, ''));
    const end = new Date(openssl(soon, '-enddate').replace('notAfter=', ''));
    expect(c.notAfter).toBe(`${end.toISOString().slice(0, 19).replace('T', ' ')}Z`);
    expect(c.extensions).toContainEqual({
      ext_name: 'subjectAltName',
      ext_data: 'DNS:soon.example, IP Address:10.0.0.1',
    });
    expect(
      ctx.log.lines.some(([, m]) =>
        String(m).startsWith(`Unable to load certificate ${join(dir, 'none.pem')}`),
      ),
    ).toBe(true);
  });

  it('a per-file notify_days overrides the beacon-wide one; -1 reports every certificate', async () => {
    const ctx = beaconCtx(join(dir, 'salt'));
    const pick = async (config: Record<string, unknown>) =>
      ((await certInfo.beacon(ctx, config)) as { certificates: { cert_path: string }[] }[]).flatMap((e) =>
        e.certificates.map((c) => c.cert_path),
      );
    expect(await pick({ files: [soon, { [later]: { notify_days: 500 } }], notify_days: 5 })).toEqual([later]);
    expect(await pick({ files: [later], notify_days: -1 })).toEqual([later]);
    expect(await pick({ files: [later] })).toEqual([]);
  });
});
