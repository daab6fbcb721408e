/**
 * Hardware and platform grains read from `/proc` and `/sys` without spawning anything: CPU
 * (`num_cpus`, `cpu_model`, `cpu_flags`), memory (`mem_total`, `swap_total` in MiB),
 * `machine_id`, `virtual`/`virtual_subtype` (Salt's cheap file checks, no
 * `systemd-detect-virt`), and `init`.
 */
import { closeSync, existsSync, openSync, readFileSync, readSync, realpathSync, statSync } from 'node:fs';
import os from 'node:os';
import { delimiter, join } from 'node:path';

/** The text of a file, or undefined when it cannot be read. */
export function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** Salt's `_linux_cpudata` over `/proc/cpuinfo` text. */
export function parseCpuinfo(text: string): { num_cpus: number; cpu_model: string; cpu_flags: string[] } {
  let num = 0;
  let model: string | undefined;
  let flags: string[] | undefined;
  for (const line of text.split('\n')) {
    const idx = line.indexOf(':');
    if (idx < 0) continue;
    const key = line.slice(0, idx).trim();
    const val =
      line
        .slice(idx + 1)
        .split(':')[0]
        ?.trim() ?? '';
    if (key === 'processor') num += 1;
    else if (key === '# processors') num = Number.parseInt(val, 10) || 0;
    else if (key === 'vendor_id' || key === 'model name' || key === 'cpu') model = val;
    else if (key === 'flags' || key === 'Features') flags = val.split(/\s+/).filter(Boolean);
    else if (key === 'Processor') {
      model = val.split('-')[0] ?? val;
      num = 1;
    }
  }
  return { num_cpus: num, cpu_model: model ?? 'Unknown', cpu_flags: flags ?? [] };
}

/** Salt's `_linux_memdata` over `/proc/meminfo` text: MiB, floored. */
export function parseMeminfo(text: string): { mem_total: number; swap_total: number } {
  const out = { mem_total: 0, swap_total: 0 };
  for (const line of text.split('\n')) {
    const [k, v] = line.split(':');
    if (v === undefined) continue;
    const kib = Number.parseInt(v.trim().split(/\s+/)[0] ?? '', 10);
    if (!Number.isFinite(kib)) continue;
    if (k?.trim() === 'MemTotal') out.mem_total = Math.floor(kib / 1024);
    if (k?.trim() === 'SwapTotal') out.swap_total = Math.floor(kib / 1024);
  }
  return out;
}

export function cpuGrains(): Record<string, unknown> {
  const text = readText('/proc/cpuinfo');
  if (text !== undefined) return parseCpuinfo(text);
  const cpus = os.cpus();
  return { num_cpus: cpus.length, cpu_model: cpus[0]?.model ?? 'Unknown', cpu_flags: [] };
}

export function memGrains(): Record<string, unknown> {
  const text = readText('/proc/meminfo');
  if (text !== undefined) return parseMeminfo(text);
  return { mem_total: Math.floor(os.totalmem() / 1048576), swap_total: 0 };
}

/** `/etc/machine-id`, else `/var/lib/dbus/machine-id`; no grain when neither exists. */
export function machineIdGrains(): Record<string, unknown> {
  for (const path of ['/etc/machine-id', '/var/lib/dbus/machine-id']) {
    if (!existsSync(path)) continue;
    const text = readText(path);
    return text === undefined ? {} : { machine_id: text.trim() };
  }
  return {};
}

/** File contents the virtual checks look at; injectable for tests. */
export interface VirtualProbe {
  read(path: string): string | undefined;
  exists(path: string): boolean;
}

const realProbe: VirtualProbe = { read: readText, exists: existsSync };

/** Salt's file-based `_virtual` checks for Linux, plus `/.dockerenv`. */
export function virtualGrains(probe: VirtualProbe = realProbe): Record<string, unknown> {
  const g: Record<string, string> = { virtual: 'physical' };
  if (probe.exists('/proc/vz')) {
    if (probe.exists('/proc/vz/version')) g.virtual = 'openvzhn';
    else if (probe.exists('/proc/vz/veinfo')) g.virtual = 'openvzve';
  }
  const envId = /^envID:\s+(\d+)$/m.exec(probe.read('/proc/self/status') ?? '');
  if (envId) g.virtual = Number(envId[1]) !== 0 ? 'openvzve' : 'openvzhn';
  if (probe.read('/proc/cpuinfo')?.includes('QEMU Virtual CPU')) g.virtual = 'kvm';
  const product = probe.read('/sys/devices/virtual/dmi/id/product_name') ?? '';
  const vendor = probe.read('/sys/devices/virtual/dmi/id/sys_vendor') ?? '';
  if (product.includes('VirtualBox')) g.virtual = 'VirtualBox';
  else if (product.includes('RHEV Hypervisor')) Object.assign(g, { virtual: 'kvm', virtual_subtype: 'rhev' });
  else if (product.includes('oVirt Node')) Object.assign(g, { virtual: 'kvm', virtual_subtype: 'ovirt' });
  else if (product.includes('Google')) g.virtual = 'gce';
  else if (product.includes('BHYVE')) g.virtual = 'bhyve';
  else if (product.startsWith('VMware') || vendor.startsWith('VMware')) g.virtual = 'VMware';
  else if (/^(QEMU|KVM)/.test(vendor) || product.startsWith('KVM')) g.virtual = 'kvm';
  else if (vendor.startsWith('Microsoft') && product.startsWith('Virtual')) g.virtual = 'VirtualPC';
  else if (vendor.startsWith('Amazon EC2'))
    Object.assign(g, { virtual: 'Nitro', virtual_subtype: 'Amazon EC2' });
  const cgroup = probe.read('/proc/1/cgroup');
  if (cgroup !== undefined) {
    if (cgroup.includes(':/lxc/')) Object.assign(g, { virtual: 'container', virtual_subtype: 'LXC' });
    else if (cgroup.includes(':/kubepods/')) g.virtual_subtype = 'kubernetes';
    else if (cgroup.includes(':/libpod_parent/')) g.virtual_subtype = 'libpod';
    else if ([':/system.slice/docker', ':/docker/', ':/docker-ce/'].some((x) => cgroup.includes(x))) {
      Object.assign(g, { virtual: 'container', virtual_subtype: 'Docker' });
    }
  }
  if (g.virtual_subtype !== 'LXC' && probe.read('/proc/1/environ')?.includes('container=lxc')) {
    Object.assign(g, { virtual: 'container', virtual_subtype: 'LXC' });
  }
  // systemd-detect-virt's cheap signs, without spawning it.
  if (g.virtual === 'physical' && probe.exists('/.dockerenv')) {
    Object.assign(g, { virtual: 'container', virtual_subtype: 'Docker' });
  }
  if (g.virtual === 'physical' && probe.exists('/run/.containerenv')) {
    Object.assign(g, { virtual: 'container', virtual_subtype: 'Podman' });
  }
  return g;
}

function which(cmd: string): string | undefined {
  if (cmd.includes('/')) return existsSync(cmd) ? cmd : undefined;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const p = join(dir, cmd);
    if (dir && existsSync(p)) return p;
  }
  return undefined;
}

/** Salt's `_linux_init_system`, reading at most 2 MiB of the init binary. */
export function initGrain(): string {
  try {
    statSync('/run/systemd/system');
    return 'systemd';
  } catch {
    // not systemd-booted
  }
  const cmdline = (readText('/proc/1/cmdline') ?? '').replaceAll('\u0000', ' ').split(/\s+/).filter(Boolean);
  const first = cmdline[0];
  if (first === undefined) return 'unknown';
  const bin = which(first);
  if (bin?.endsWith('bin/init')) {
    try {
      const real = realpathSync(bin);
      if (real.endsWith('/systemd')) return 'systemd';
      const buf = Buffer.alloc(2 * 1024 * 1024);
      const fd = openSync(real, 'r');
      let n = 0;
      try {
        n = readSync(fd, buf, 0, buf.length, 0);
      } finally {
        closeSync(fd);
      }
      const head = buf.subarray(0, n).toString('latin1').toLowerCase();
      for (const name of ['upstart', 'sysvinit', 'systemd']) if (head.includes(name)) return name;
    } catch {
      // unreadable init binary
    }
    return 'unknown';
  }
  const has = (cmd: string): boolean => {
    const p = which(cmd);
    return p !== undefined && cmdline.includes(p);
  };
  if (has('supervisord')) return 'supervisord';
  if (has('dumb-init')) return 'dumb-init';
  if (has('tini')) return 'tini';
  if (cmdline.length === 1 && first === 'runit') return 'runit';
  if (cmdline.includes('/sbin/my_init')) return 'runit';
  return 'unknown';
}

const DMI_FILES: Readonly<Record<string, string>> = {
  biosversion: 'bios_version',
  biosvendor: 'bios_vendor',
  boardname: 'board_name',
  productname: 'product_name',
  manufacturer: 'sys_vendor',
  biosreleasedate: 'bios_date',
  uuid: 'product_uuid',
  serialnumber: 'product_serial',
};

/** Salt's `_hw_data` on Linux: firmware facts from `/sys/class/dmi/id` (unreadable files are skipped). */
export function dmiGrains(dir = '/sys/class/dmi/id'): Record<string, unknown> {
  const g: Record<string, unknown> = {};
  if (!existsSync(dir)) return g;
  for (const [key, file] of Object.entries(DMI_FILES)) {
    const text = readText(join(dir, file));
    if (text === undefined) continue;
    g[key] = key === 'uuid' ? text.trim().toLowerCase() : text.trim();
  }
  return g;
}
