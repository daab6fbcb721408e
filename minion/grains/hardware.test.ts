import { describe, expect, it } from 'vitest';
import { parseCpuinfo, parseMeminfo, type VirtualProbe, virtualGrains } from './hardware.js';

function probe(files: Record<string, string>): VirtualProbe {
  return { read: (p) => files[p], exists: (p) => p in files };
}

describe('hardware grains', () => {
  it('parses x86 and ARM cpuinfo', () => {
    const x86 =
      'processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Intel(R) Xeon(R)\nflags\t\t: fpu vme sse\n\nprocessor\t: 1\nmodel name\t: Intel(R) Xeon(R)\n';
    expect(parseCpuinfo(x86)).toEqual({
      num_cpus: 2,
      cpu_model: 'Intel(R) Xeon(R)',
      cpu_flags: ['fpu', 'vme', 'sse'],
    });
    expect(
      parseCpuinfo('Processor\t: ARMv6-compatible processor rev 7 (v6l)\nFeatures\t: swp half\n'),
    ).toEqual({
      num_cpus: 1,
      cpu_model: 'ARMv6',
      cpu_flags: ['swp', 'half'],
    });
    expect(parseCpuinfo('')).toEqual({ num_cpus: 0, cpu_model: 'Unknown', cpu_flags: [] });
  });

  it('parses meminfo in MiB, floored', () => {
    expect(parseMeminfo('MemTotal:       2048123 kB\nSwapTotal:      1048576 kB\n')).toEqual({
      mem_total: 2000,
      swap_total: 1024,
    });
  });

  it('detects containers and hypervisors from files only', () => {
    expect(virtualGrains(probe({}))).toEqual({ virtual: 'physical' });
    expect(virtualGrains(probe({ '/.dockerenv': '' }))).toEqual({
      virtual: 'container',
      virtual_subtype: 'Docker',
    });
    expect(virtualGrains(probe({ '/proc/1/cgroup': '0::/docker/abc\n' }))).toEqual({
      virtual: 'container',
      virtual_subtype: 'Docker',
    });
    expect(virtualGrains(probe({ '/proc/1/cgroup': '1:name=systemd:/lxc/c1\n' }))).toMatchObject({
      virtual_subtype: 'LXC',
    });
    expect(virtualGrains(probe({ '/proc/1/environ': 'container=lxc\u0000' }))).toMatchObject({
      virtual: 'container',
    });
    expect(virtualGrains(probe({ '/sys/devices/virtual/dmi/id/product_name': 'VirtualBox\n' }))).toEqual({
      virtual: 'VirtualBox',
    });
    expect(virtualGrains(probe({ '/sys/devices/virtual/dmi/id/sys_vendor': 'QEMU\n' }))).toEqual({
      virtual: 'kvm',
    });
  });
});
