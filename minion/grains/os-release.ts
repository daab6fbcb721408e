/**
 * The Linux OS grains as Salt 3006 derives them (`salt/grains/core.py`): `/etc/os-release`
 * (freedesktop format) and `/etc/lsb-release`, mapped to `os`, `os_family`, `osfullname`,
 * `osrelease`, `oscodename`, the `lsb_distrib_*` grains, and `osrelease_info`,
 * `osmajorrelease`, `osfinger`.
 *
 * Salt's onedir Python has no `lsb_release` module, so Salt takes its "legacy" path on every
 * distribution: the os-release values feed the `lsb_distrib_*` grains when `/etc/lsb-release`
 * lacks them, and `os_family` comes from the `os` → family table. That path is followed here.
 */

/** Parses os-release text; the keys Salt defaults (NAME, ID, PRETTY_NAME) are always present. */
export function parseOsRelease(text: string): Record<string, string> {
  const out: Record<string, string> = { NAME: 'Linux', ID: 'linux', PRETTY_NAME: 'Linux' };
  for (const raw of text.split('\n')) {
    const m = /^(\w+)=(?:'|")?(.*?)(?:'|")?$/.exec(raw.trim());
    if (m) out[m[1] as string] = (m[2] as string).replace(/\\([$"'\\`])/g, '$1');
  }
  return out;
}

/** Parses `/etc/lsb-release` into `lsb_distrib_{id,release,codename,description}`. */
export function parseLsbRelease(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const m = /^(DISTRIB_(?:ID|RELEASE|CODENAME|DESCRIPTION))=(?:'|")?([\w\s.\-_]+)(?:'|")?/.exec(line);
    if (m) out[`lsb_${(m[1] as string).toLowerCase()}`] = (m[2] as string).trimEnd();
  }
  return out;
}

/** First ten characters (no spaces, lowercased) of a distribution name → Salt's `os` grain. */
const OS_NAME_MAP: Readonly<Record<string, string>> = {
  redhatente: 'RedHat',
  gentoobase: 'Gentoo',
  archarm: 'Arch ARM',
  arch: 'Arch',
  debian: 'Debian',
  raspbian: 'Raspbian',
  fedoraremi: 'Fedora',
  chapeau: 'Chapeau',
  korora: 'Korora',
  amazonami: 'Amazon',
  alt: 'ALT',
  enterprise: 'OEL',
  oracleserv: 'OEL',
  cloudserve: 'CloudLinux',
  cloudlinux: 'CloudLinux',
  almalinux: 'AlmaLinux',
  pidora: 'Fedora',
  scientific: 'ScientificLinux',
  synology: 'Synology',
  nilrt: 'NILinuxRT',
  poky: 'Poky',
  manjaro: 'Manjaro',
  manjarolin: 'Manjaro',
  univention: 'Univention',
  antergos: 'Antergos',
  sles: 'SUSE',
  void: 'Void',
  slesexpand: 'RES',
  linuxmint: 'Mint',
  neon: 'KDE neon',
  pop: 'Pop',
  rocky: 'Rocky',
  alibabaclo: 'Alinux',
  mendel: 'Mendel',
};

const ID_AND_NAME_TO_OS: Readonly<Record<string, string>> = {
  'astra\u0000Astra Linux (Orel)': 'AstraLinuxCE',
  'astra\u0000Astra Linux (Smolensk)': 'AstraLinuxSE',
  'pop\u0000Pop!_OS': 'Pop',
};

/** The `os` grain → `os_family`; an `os` not listed is its own family. */
export const OS_FAMILY_MAP: Readonly<Record<string, string>> = {
  Ubuntu: 'Debian',
  Fedora: 'RedHat',
  Chapeau: 'RedHat',
  Korora: 'RedHat',
  FedBerry: 'RedHat',
  CentOS: 'RedHat',
  'CentOS Stream': 'RedHat',
  GoOSe: 'RedHat',
  Scientific: 'RedHat',
  Amazon: 'RedHat',
  CloudLinux: 'RedHat',
  AlmaLinux: 'RedHat',
  OVS: 'RedHat',
  OEL: 'RedHat',
  XCP: 'RedHat',
  'XCP-ng': 'RedHat',
  XenServer: 'RedHat',
  RES: 'RedHat',
  Sangoma: 'RedHat',
  'VMware Photon OS': 'RedHat',
  Mandrake: 'Mandriva',
  Mint: 'Debian',
  VMwareESX: 'VMware',
  Bluewhite64: 'Bluewhite',
  Slamd64: 'Slackware',
  SLES: 'Suse',
  'SUSE Enterprise Server': 'Suse',
  'SUSE  Enterprise Server': 'Suse',
  SLED: 'Suse',
  openSUSE: 'Suse',
  SUSE: 'Suse',
  'openSUSE Leap': 'Suse',
  'openSUSE Tumbleweed': 'Suse',
  SLES_SAP: 'Suse',
  'Arch ARM': 'Arch',
  Manjaro: 'Arch',
  'Manjaro ARM': 'Arch',
  Antergos: 'Arch',
  EndeavourOS: 'Arch',
  ALT: 'RedHat',
  Trisquel: 'Debian',
  GCEL: 'Debian',
  Linaro: 'Debian',
  'elementary OS': 'Debian',
  elementary: 'Debian',
  Univention: 'Debian',
  ScientificLinux: 'RedHat',
  Raspbian: 'Debian',
  Devuan: 'Debian',
  antiX: 'Debian',
  Kali: 'Debian',
  'Parrot OS': 'Debian',
  neon: 'Debian',
  Cumulus: 'Debian',
  Deepin: 'Debian',
  NILinuxRT: 'NILinuxRT',
  'KDE neon': 'Debian',
  Void: 'Void',
  IDMS: 'Debian',
  Funtoo: 'Gentoo',
  TurnKey: 'Debian',
  Pop: 'Debian',
  Rocky: 'RedHat',
  AstraLinuxCE: 'Debian',
  AstraLinuxSE: 'Debian',
  Alinux: 'RedHat',
  Mendel: 'Debian',
  OSMC: 'Debian',
};

/** Salt's `_derive_os_grain`: the short `os` name from a full distribution name. */
export function deriveOs(fullName: string, id?: string): string {
  const pair = id === undefined ? undefined : ID_AND_NAME_TO_OS[`${id}\u0000${fullName}`];
  if (pair) return pair;
  const name = fullName.replace(/\W(?:gnu\/)?linux/gi, '').trim();
  return OS_NAME_MAP[name.replaceAll(' ', '').toLowerCase().slice(0, 10)] ?? name;
}

/** Codename quirks Salt applies for distributions whose os-release lacks VERSION_CODENAME. */
function codenameQuirk(rel: Readonly<Record<string, string>>): string | undefined {
  if (rel.ID === 'astra') return rel.VARIANT_ID;
  if (rel.ID === 'almalinux' || rel.ID === 'rocky') {
    return /^\d[\d.+\-a-z]* \((.+)\)/.exec(rel.VERSION ?? '')?.[1];
  }
  return undefined;
}

/** OS grains from os-release and lsb-release data. */
export function linuxDistributionGrains(
  rel: Readonly<Record<string, string>>,
  lsbRelease: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const g: Record<string, string> = { ...lsbRelease };
  const name = rel.NAME ?? 'Linux';
  const os = deriveOs(name, rel.ID);
  const osfullname = name.trim();
  let oscodename = rel.VERSION_CODENAME || codenameQuirk(rel) || '';
  if (!('lsb_distrib_id' in g)) {
    g.lsb_distrib_id = name.trim();
    if (rel.VERSION_ID !== undefined) g.lsb_distrib_release = rel.VERSION_ID;
    if (rel.VERSION_CODENAME !== undefined) g.lsb_distrib_codename = rel.VERSION_CODENAME;
    else if (rel.PRETTY_NAME !== undefined) g.lsb_distrib_codename = rel.PRETTY_NAME;
    if (rel.ID?.trim() === 'mendel') {
      const third = (rel.PRETTY_NAME ?? '').split(/\s+/)[2];
      if (third) g.lsb_distrib_release = third;
    }
  }
  // distro.version(best=True) and distro.codename() fall back on the os-release values.
  let osrelease = (g.lsb_distrib_release ?? rel.VERSION_ID ?? '').trim();
  if (/CentOS Linux [78]/.test(g.lsb_distrib_codename ?? '')) osrelease = (rel.VERSION_ID ?? '').trim();
  let lsbCodename = g.lsb_distrib_codename ?? '';
  if (lsbCodename && ['Rocky', 'AlmaLinux', 'AstraLinuxSE'].some((o) => os.includes(o))) {
    const inner = lsbCodename.split('(')[1];
    if (inner !== undefined) {
      const head = inner.split(')')[0] ?? '';
      lsbCodename = os === 'AstraLinuxSE' ? (head.split(/\s+/)[0] ?? '').toLowerCase() : head;
      g.lsb_distrib_codename = lsbCodename;
    }
  }
  oscodename = lsbCodename.trim() || oscodename;
  if (oscodename.includes('Red Hat')) oscodename = rel.VERSION_CODENAME ?? '';
  return {
    ...g,
    os,
    os_family: OS_FAMILY_MAP[os] ?? os,
    osfullname,
    osrelease,
    oscodename,
  };
}

/** Salt's `_osrelease_data`: `osrelease_info` (numbers where numeric), `osmajorrelease`, `osfinger`. */
export function osReleaseData(os: string, osfullname: string, osrelease: string): Record<string, unknown> {
  const info: (string | number)[] = osrelease.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p));
  const out: Record<string, unknown> = { osrelease_info: info };
  const first = info[0];
  if (typeof first === 'number') out.osmajorrelease = first;
  else if (typeof first === 'string' && /^\s*[-+]?\d+\s*$/.test(first)) out.osmajorrelease = Number(first);
  const osName = ['Debian', 'FreeBSD', 'OpenBSD', 'NetBSD', 'Mac', 'Raspbian'].includes(os) ? os : osfullname;
  out.osfinger = `${osName}-${os === 'Ubuntu' || os === 'Pop' ? osrelease : String(first ?? '')}`;
  return out;
}
