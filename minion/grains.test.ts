import { describe, expect, it } from 'vitest';
import { coreGrains, mergeGrains, osArch, serverId } from './grains.js';

describe('coreGrains', () => {
  const g = coreGrains('m1', 'salt.example', { role: 'web' });

  it('has every core grain with the type Salt reports', () => {
    const strings = [
      'id',
      'host',
      'nodename',
      'fqdn',
      'domain',
      'localhost',
      'os',
      'os_family',
      'osrelease',
      'oscodename',
      'osfullname',
      'kernel',
      'kernelrelease',
      'kernelversion',
      'cpuarch',
      'osarch',
      'cpu_model',
      'virtual',
      'path',
      'shell',
      'username',
      'groupname',
      'saltversion',
      'nodeversion',
      'tsaltversion',
      'master',
      'init',
      'cwd',
    ];
    for (const k of strings) expect(typeof g[k], k).toBe('string');
    for (const k of ['num_cpus', 'mem_total', 'swap_total', 'uid', 'gid', 'pid', 'server_id']) {
      expect(Number.isInteger(g[k]), k).toBe(true);
    }
    for (const k of [
      'cpu_flags',
      'ipv4',
      'ipv6',
      'fqdn_ip4',
      'fqdn_ip6',
      'fqdns',
      'saltversioninfo',
      'systempath',
    ]) {
      expect(Array.isArray(g[k]), k).toBe(true);
    }
    for (const k of [
      'ip_interfaces',
      'ip4_interfaces',
      'ip6_interfaces',
      'hwaddr_interfaces',
      'locale_info',
    ]) {
      expect(typeof g[k], k).toBe('object');
    }
    expect(g.kernel).toBe('Linux');
    expect(g.id).toBe('m1');
    expect(g.master).toBe('salt.example');
    expect(g.saltversion).toBe('3006.18');
    expect(g.saltversioninfo).toEqual([3006, 18]);
    expect(g.ipv4).toContain('127.0.0.1');
    expect(g.pid).toBe(process.pid);
    expect(Object.keys(g.locale_info as object).sort()).toEqual([
      'defaultencoding',
      'defaultlanguage',
      'detectedencoding',
      'timezone',
    ]);
    if (g.osrelease) expect(Array.isArray(g.osrelease_info)).toBe(true);
  });

  it('lays configured grains over the core ones', () => {
    expect(g.role).toBe('web');
    expect(coreGrains('m1', 'x', { os: 'Custom' }).os).toBe('Custom');
  });
});

describe('grain helpers', () => {
  it('server_id is the sha256 of the id modulo 2^31 (as Salt 3006)', () => {
    // python3 -c "import hashlib;print(abs(int(hashlib.sha256(b'm1').hexdigest(),16)%(2**31)))"
    expect(serverId('m1')).toBe(890885657);
    expect(serverId('')).toBeGreaterThanOrEqual(0);
  });

  it('osarch uses Debian names on Debian, the CPU architecture elsewhere', () => {
    expect(osArch('Debian', 'x86_64')).toBe('amd64');
    expect(osArch('Debian', 'aarch64')).toBe('arm64');
    expect(osArch('RedHat', 'x86_64')).toBe('x86_64');
  });

  it('mergeGrains replaces top-level keys, or deep-merges', () => {
    const base = { a: { b: 1, c: 2 }, d: 1 };
    expect(mergeGrains(base, { a: { b: 9 } }, false)).toEqual({ a: { b: 9 }, d: 1 });
    expect(mergeGrains(base, { a: { b: 9 } }, true)).toEqual({ a: { b: 9, c: 2 }, d: 1 });
    expect(base).toEqual({ a: { b: 1, c: 2 }, d: 1 });
  });
});
