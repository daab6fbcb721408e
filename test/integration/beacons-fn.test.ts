/**
 * The beacons that ask execution functions (pkg, service, status, salt_monitor, cert_info, sh)
 * run in a real minion and their events reach the master with Salt's tags and data.
 */
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SaltEvent } from '../../kernel/jobs/types.js';
import { Cluster } from '../../tools/local-cluster.js';
import { collectMasterEvents, type MasterEvents } from '../support/master-events.js';

describe('beacons asking execution functions fire to the master', () => {
  const c = new Cluster();
  let events: MasterEvents;
  const pkg = `tsalt-bcnit-${process.pid}`;
  const svc = `tsalt-bsvcit-${process.pid}`;
  const script = `/etc/init.d/${svc}`;
  const shell = spawn('bash', [], { stdio: ['pipe', 'ignore', 'ignore'] });

  beforeAll(async () => {
    await c.startMaster();
    events = await collectMasterEvents(c, ['salt/beacon/']);
    const flag = join(c.root, 'svc-running');
    writeFileSync(script, `#!/bin/sh\ncase "$1" in status) [ -e ${flag} ] ;; esac\n`);
    chmodSync(script, 0o755);
    writeFileSync(flag, '');
    const deb = join(c.root, 'deb');
    mkdirSync(join(deb, 'DEBIAN'), { recursive: true });
    writeFileSync(
      join(deb, 'DEBIAN', 'control'),
      `Package: ${pkg}\nVersion: 3.1\nArchitecture: all\nMaintainer: tsalt <root@localhost>\nDescription: throwaway\n`,
    );
    execFileSync('dpkg-deb', ['--build', deb, join(c.root, 'p.deb')], { stdio: 'ignore' });
    const cert = join(c.root, 'c.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        join(c.root, 'c.key'),
        '-out',
        cert,
      ].concat(['-days', '20', '-subj', '/CN=beacon.example']),
      { stdio: 'ignore' },
    );
    await c.startMinion('m1', {
      beacons: {
        pkg: [{ pkgs: [pkg] }, { interval: 2 }],
        service: [{ services: { [svc]: { onchangeonly: true } } }, { interval: 2 }],
        status: [{ loadavg: ['1-min'] }, { interval: 3 }],
        salt_monitor: [
          { salt_fun: [{ 'test.echo': { args: ['watching'] } }, 'test.false'] },
          { interval: 3 },
        ],
        cert_info: [{ files: [cert] }, { interval: 3 }],
        sh: [{ interval: 1 }],
        bad_service: [{ beacon_module: 'service' }, { services: ['x'] }],
      },
    });
  }, 120_000);
  afterAll(async () => {
    shell.kill();
    events.close();
    await c.stop();
    rmSync(script, { force: true });
    try {
      execFileSync('dpkg', ['-r', pkg], { stdio: 'ignore' });
    } catch {}
  });

  async function waitFor(pred: (e: SaltEvent) => boolean, ms = 90_000): Promise<SaltEvent | undefined> {
    for (let t = 0; t < ms; t += 100) {
      const ev = events.seen.find(pred);
      if (ev) return ev;
      await new Promise((r) => setTimeout(r, 100));
    }
    return undefined;
  }

  it('service fires the status tagged with the service name', async () => {
    const ev = await waitFor((e) => e.tag === `salt/beacon/m1/service/${svc}`);
    expect(ev?.data).toMatchObject({ [svc]: { running: true }, service_name: svc, id: 'm1' });
  }, 120_000);

  it('status fires its functions tagged with the time; salt_monitor only the truthy returns', async () => {
    const st = await waitFor((e) => e.tag.startsWith('salt/beacon/m1/status/'));
    expect(st?.tag).toMatch(/^salt\/beacon\/m1\/status\/\d{4}-\d\d-\d\dT[\d:.]+$/);
    expect(Object.keys((st?.data.data ?? {}) as object)).toEqual(['loadavg']);
    const mon = await waitFor((e) => e.tag === 'salt/beacon/m1/salt_monitor/');
    expect(mon?.data).toMatchObject({ salt_fun: 'test.echo', ret: 'watching', args: ['watching'], id: 'm1' });
    expect(events.seen.some((e) => e.data.salt_fun === 'test.false')).toBe(false);
  }, 120_000);

  it('cert_info fires the certificate expiring within notify_days', async () => {
    const ev = await waitFor((e) => e.tag === 'salt/beacon/m1/cert_info/');
    const certs = ev?.data.certificates as Record<string, unknown>[];
    expect(certs[0]).toMatchObject({ subject: 'CN="beacon.example"', has_expired: false, version: 2 });
  }, 120_000);

  it('pkg fires when the watched package gets installed', async () => {
    // let a run record the package as not installed first
    await new Promise((r) => setTimeout(r, 8_000));
    execFileSync('dpkg', ['-i', join(c.root, 'p.deb')], { stdio: 'ignore' });
    const ev = await waitFor((e) => e.tag === 'salt/beacon/m1/pkg/');
    expect(ev?.data).toMatchObject({ pkg, version: '3.1', status: 'installed', id: 'm1' });
  }, 120_000);

  it('sh fires the commands a running shell executes, tagged with its pid', async () => {
    const tag = `salt/beacon/m1/sh/${shell.pid}`;
    let ev: SaltEvent | undefined;
    for (let i = 0; i < 30 && !ev; i++) {
      shell.stdin.write('/bin/true beacon-it\n');
      ev = await waitFor((e) => e.tag === tag, 2_000);
    }
    expect(ev?.data).toMatchObject({ cmd: '/bin/true', args: ['/bin/true', 'beacon-it'], user: 'root' });
  }, 120_000);

  it("a refused config is logged with Salt's reason", () => {
    expect(c.minions.get('m1')!.out).toContain(
      'Beacon bad_service configuration invalid, not adding. Services configuration item for service beacon must be a dictionary.',
    );
  });
});
