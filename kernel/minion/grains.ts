/**
 * Core grains a minion knows without blocking (no DNS): enough for targeting and
 * `test.versions_report`; the full set comes with the grains module.
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { SALT_COMPAT_VERSION, VERSION } from '../version.js';

function osRelease(): Record<string, string> {
  try {
    const out: Record<string, string> = {};
    for (const line of readFileSync('/etc/os-release', 'utf8').split('\n')) {
      const m = /^([A-Z_]+)=("?)(.*)\2$/.exec(line.trim());
      if (m) out[m[1] as string] = m[3] as string;
    }
    return out;
  } catch {
    return {};
  }
}

const ARCH: Record<string, string> = { x64: 'x86_64', arm64: 'aarch64', ia32: 'i686', arm: 'armv7l' };
const OSARCH: Record<string, string> = { x64: 'amd64', arm64: 'arm64', ia32: 'i386', arm: 'armhf' };

export function coreGrains(
  id: string,
  master: string,
  configured: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const rel = osRelease();
  const osName = rel.NAME?.split(' ')[0] ?? os.type();
  const family = rel.ID_LIKE?.split(' ')[0] ?? rel.ID ?? os.type();
  return {
    id,
    master,
    host: os.hostname().split('.')[0],
    nodename: os.hostname(),
    kernel: os.type(),
    kernelrelease: os.release(),
    os: osName,
    os_family: family.charAt(0).toUpperCase() + family.slice(1),
    osrelease: rel.VERSION_ID ?? '',
    oscodename: rel.VERSION_CODENAME ?? '',
    cpuarch: ARCH[os.arch()] ?? os.arch(),
    osarch: OSARCH[os.arch()] ?? os.arch(),
    num_cpus: os.cpus().length,
    mem_total: Math.round(os.totalmem() / 1024 / 1024),
    saltversion: SALT_COMPAT_VERSION,
    tsaltversion: VERSION,
    nodeversion: process.versions.node,
    ...configured,
  };
}
