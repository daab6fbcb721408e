// disk, mount, ps, network and status functions through a real masterless salt-call, on a
// throwaway ext4 image file (and a loop device over it where losetup works); Salt 3006.18
// answers the same (measured with /tmp/sysinfo18/harness.mjs).
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseHdparm, parseSmart } from '../../modules/_disk-fns-more.js';
import { meanHundredths, parseIostat } from '../../modules/_disk-iostat.js';
import { which } from '../../modules/_which.js';
import { localCaller } from '../support/local-call.js';
import { attachLoop, detachLoop, sparseImage } from '../support/loop-device.js';

const root = mkdtempSync(join(tmpdir(), 'tsalt-sysinfo-'));
const img = join(root, 'disk.img');
const call = localCaller(root, 'sysinfo');
let loop: string | undefined;

beforeAll(() => {
  sparseImage(img, 16);
  execFileSync('mkfs.ext4', ['-q', '-F', img]);
  loop = attachLoop(img);
});
afterAll(() => {
  if (loop) detachLoop(loop);
  rmSync(root, { recursive: true, force: true });
});

describe('disk functions on a throwaway image', () => {
  it('wipes, formats and resizes a file system as Salt does', async () => {
    expect((await call('disk.resize2fs', img)).local).toBe(true);
    expect((await call('disk.wipe', img)).local).toBe(true);
    expect(execFileSync('wipefs', [img], { encoding: 'utf8' })).not.toContain('ext4');
    expect((await call('disk.resize2fs', img)).local).toBeNull(); // no superblock: Salt returns None
    expect((await call('disk.format', img, 'ext4', 'force=True')).local).toBe(true);
    expect(execFileSync('blkid', ['-o', 'value', '-s', 'TYPE', img], { encoding: 'utf8' }).trim()).toBe(
      'ext4',
    );
    expect((await call('disk.format', img, 'fs_type=nosuchfs')).local).toBe(false);
    expect((await call('disk.wipe', join(root, 'missing'))).local).toBe(false);
  });

  it('reports and tunes a block device with blockdev', async () => {
    if (!loop) return; // no loop devices here: nothing to run blockdev against
    const dump = (await call('disk.dump', loop)).local as Record<string, string>;
    expect(dump.getsize64).toBe(String(16 * 1024 * 1024));
    expect(Object.keys(dump)).toHaveLength(12);
    expect((await call('disk.dump', loop, '[getss, getsz]')).local).toEqual({ getss: '512', getsz: '32768' });
    expect((await call('disk.tune', loop, 'read-ahead=1024')).local).toEqual({ getra: '1024' });
    expect(execFileSync('blockdev', ['--getra', loop], { encoding: 'utf8' }).trim()).toBe('1024');
    const bad = await call('disk.tune', loop, 'foo=1', 'read-only=no');
    expect(bad.code).toBe(1);
    expect(bad.output).toContain('Invalid keyword arguments: foo=1, read-only=False');
    expect((await call('disk.dump', img)).local).toBe(false); // not a block device
  });

  it('parses hdparm, smartctl and iostat reports as Salt does', () => {
    expect(
      parseHdparm(
        '\n/dev/sda:\n readonly      =  0 (off)\n drive state is:  unknown\n geometry = 1/2/3, sectors = 40960, start = 0\n',
        '/dev/sda',
      ),
    ).toEqual({
      readonly: [0, 'off'],
      drive_state: 'unknown',
      geometry: [1, 2, 3, { sectors: '40960', start: '0' }],
    });
    const smart = [
      'ID# ATTRIBUTE_NAME          FLAG     VALUE WORST THRESH TYPE      UPDATED  WHEN_FAILED RAW_VALUE',
      '  5 Reallocated_Sector_Ct   0x0033   100   100   010    Pre-fail  Always       -       0',
      '194 Temperature_Celsius     0x0022   036   052   000    Old_age   Always       -       36 (Min/Max 20/52)',
      '',
    ].join('\n');
    const parsed = parseSmart(smart, undefined, undefined);
    expect(parsed['5']).toMatchObject({ attribute_name: 'Reallocated_Sector_Ct', value: 100, raw_value: 0 });
    expect(parsed['194']?.raw_value).toBe('36 (Min/Max 20/52)');
    expect(Object.keys(parseSmart(smart, [5], ['value']))).toEqual(['5']);
    expect(meanHundredths([1n, 2n].map((x) => x * 10000n))).toBe(0.02); // 0.015 → 0.02 (ties to even)
    expect(meanHundredths([250000n, 0n])).toBe(0.12); // 0.125 → 0.12
    const io = parseIostat(
      'avg-cpu:  %user   %nice\n           1.00    2.00\n\navg-cpu:  %user   %nice\n           2.00    2.01\n\nDevice             r/s\nvda 1.00\n',
    );
    expect(JSON.parse(JSON.stringify(io))).toEqual({ sys: { '%user': 1.5, '%nice': 2 } });
  });

  it("finds a path's mount, device and file system type", async () => {
    expect((await call('mount.get_mount_from_path', '/proc/self/fd')).local).toBe('/proc');
    expect((await call('mount.get_mount_from_path', '/no/such/path')).local).toBe('/');
    const device = (await call('mount.get_device_from_path', '/proc/1')).local;
    expect(device).toBe('proc');
    expect((await call('disk.get_fstype_from_path', '/proc')).local).toBe('');
    expect((await call('mount.is_fuse_exec', 'ls')).local).toBe(false);
    expect((await call('mount.is_fuse_exec', 'no-such-command-xyz')).local).toBe(false);
  });

  it('runs iostat where sysstat is installed (Salt finds only the CPU averages in its output)', async () => {
    if (!which('iostat')) return;
    const r = (await call('disk.iostat', '1', '2')).local as Record<string, Record<string, number>>;
    expect(Object.keys(r)).toEqual(['sys']);
    expect(Object.keys(r.sys!)).toContain('%idle');
  });
});

describe('ps, network and status through salt-call', () => {
  let server: Server;
  let port = 0;
  beforeAll(async () => {
    server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => server.close());

  it('finds the lines of ss and netstat that name a process', async () => {
    const ss = (await call('ps.ss', `127.0.0.1:${port}`)).local as [string, string[]];
    expect(ss[0]).toBe(`127.0.0.1:${port}`);
    expect(ss[1].some((l) => l.includes('LISTEN'))).toBe(true);
    if (which('netstat')) {
      const ns = (await call('ps.netstat', `127.0.0.1:${port}`)).local as [string, string[]];
      expect(ns[1].some((l) => l.includes('LISTEN'))).toBe(true);
    }
    const child = spawn('sleep', ['30']);
    try {
      const lsof = (await call('ps.lsof', 'sleep')).local as [string, string];
      expect(lsof[0]).toBe('sleep');
      expect(lsof[1]).toContain(String(child.pid));
    } finally {
      child.kill();
    }
  });

  it('traces the route to this host', async () => {
    if (!which('traceroute')) return;
    const hops = (await call('network.traceroute', '127.0.0.1')).local as Array<Record<string, unknown>>;
    expect(hops).toHaveLength(1);
    expect(hops[0]).toMatchObject({ count: 1, ip: '127.0.0.1' });
    expect(typeof hops[0]!.ms1).toBe('number');
  });

  it('reports no master connection and no proxy', async () => {
    expect((await call('status.master')).local).toBeNull();
    expect((await call('status.master', 'localhost')).local).toBe(false);
    expect((await call('status.ping_master', '')).local).toBe(false);
    expect((await call('status.proxy_reconnect', 'rest_sample')).local).toBe(false);
    expect((await call('user.get_loginclass', 'root')).local).toBe(false);
  });
});
