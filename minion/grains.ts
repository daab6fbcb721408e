/**
 * The minion's grains, as Salt 3006 computes them on Linux (`salt/grains/core.py`,
 * `extra.py`, `minion_process.py`), fast and without DNS or child processes. Precedence is
 * Salt's (`salt.loader.grains`): core grains, then the grains file (`<config dir>/grains`),
 * then the minion config's `grains` option.
 */
import { createHash } from 'node:crypto';
import os from 'node:os';
import { SALT_COMPAT_VERSION, VERSION } from '../kernel/version.js';
import { fqdnIpGrains, fqdnsGrain } from './grains/fqdn.js';
import {
  cpuGrains,
  dmiGrains,
  initGrain,
  machineIdGrains,
  memGrains,
  readText,
  virtualGrains,
} from './grains/hardware.js';
import { hostnameGrains, networkGrains } from './grains/network.js';
import {
  linuxDistributionGrains,
  osReleaseData,
  parseLsbRelease,
  parseOsRelease,
} from './grains/os-release.js';
import { localeGrains, processGrains } from './grains/process.js';
import { systemGrains } from './grains/system.js';
import { mergeGrains } from './grains-merge.js';
import { zmqVersion } from './zmq-version.js';

export { deepUpdate, mergeGrains } from './grains-merge.js';

const CPUARCH: Readonly<Record<string, string>> = {
  x64: 'x86_64',
  arm64: 'aarch64',
  ia32: 'i686',
  arm: 'armv7l',
  ppc64: 'ppc64le',
  s390x: 's390x',
  riscv64: 'riscv64',
};
/** What `dpkg --print-architecture` prints for a CPU architecture. */
const DEB_ARCH: Readonly<Record<string, string>> = {
  x86_64: 'amd64',
  aarch64: 'arm64',
  i686: 'i386',
  armv7l: 'armhf',
  ppc64le: 'ppc64el',
};

/** Salt's `osarch`: the package architecture (Debian's names on Debian, rpm's = the CPU's elsewhere). */
export function osArch(osFamily: string, cpuarch: string): string {
  return osFamily === 'Debian' ? (DEB_ARCH[cpuarch] ?? cpuarch) : cpuarch;
}

/** Salt's `server_id`: sha256 of the id, modulo 2^31. */
export function serverId(id: string): number {
  const hash = BigInt(`0x${createHash('sha256').update(id).digest('hex')}`);
  return Number(hash % 2n ** 31n);
}

/** `saltversioninfo`: the numeric parts of the Salt version. */
function versionInfo(v: string): number[] {
  return v.split('.').map((p) => Number.parseInt(p, 10));
}

/** The OS, hardware and platform grains (the parts that do not depend on the id or config). */
export function platformGrains(): Record<string, unknown> {
  const cpuarch = CPUARCH[os.arch()] ?? os.machine?.() ?? os.arch();
  const g: Record<string, unknown> = {
    num_gpus: 0,
    gpus: [],
    kernel: os.type(),
    nodename: os.hostname(),
    kernelrelease: os.release(),
    kernelversion: os.version(),
    cpuarch,
  };
  if (os.type() === 'Linux') {
    g.init = initGrain();
    const rel = parseOsRelease(readText('/etc/os-release') ?? readText('/usr/lib/os-release') ?? '');
    Object.assign(g, linuxDistributionGrains(rel, parseLsbRelease(readText('/etc/lsb-release') ?? '')));
  } else {
    Object.assign(g, { os: os.type(), os_family: 'Unknown' });
  }
  Object.assign(g, cpuGrains());
  g.osarch = osArch(String(g.os_family), cpuarch);
  Object.assign(g, memGrains());
  if (os.type() === 'Linux') Object.assign(g, dmiGrains());
  Object.assign(g, virtualGrains());
  if (typeof g.osrelease === 'string' && g.osrelease) {
    Object.assign(g, osReleaseData(String(g.os), String(g.osfullname), g.osrelease));
  }
  return g;
}

/** `fqdn_ip4`, `fqdn_ip6` and `fqdns` from the interface grains and `/etc/hosts`. */
function fqdnGrains(fqdn: string, net: Record<string, unknown>): Record<string, unknown> {
  const hosts = readText('/etc/hosts') ?? '';
  const v4 = (net.ipv4 ?? []) as string[];
  const v6 = (net.ipv6 ?? []) as string[];
  return { ...fqdnIpGrains(fqdn, v4, v6, hosts), ...fqdnsGrain([...v4, ...v6], hosts) };
}

/**
 * Core grains for minion `id` with master `master`; `configured` (the config's `grains`) is
 * laid over them. Does not read the grains file: `minionGrainsView` (job-env.ts) does.
 */
export function coreGrains(
  id: string,
  master: string,
  configured: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const hostname = hostnameGrains();
  const net = networkGrains();
  const g: Record<string, unknown> = {
    ...platformGrains(),
    ...hostname,
    ...net,
    ...systemGrains(),
    ...machineIdGrains(),
    ...localeGrains(),
    ...processGrains(),
    id,
    master,
    server_id: serverId(id),
    ...fqdnGrains(hostname.fqdn ?? '', net),
    saltversion: SALT_COMPAT_VERSION,
    saltversioninfo: versionInfo(SALT_COMPAT_VERSION),
    tsaltversion: VERSION,
    nodeversion: process.versions.node,
  };
  const zmq = zmqVersion();
  if (zmq) g.zmqversion = zmq;
  return mergeGrains(g, configured, false);
}
