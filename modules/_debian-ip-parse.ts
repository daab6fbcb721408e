/**
 * Reads ifupdown's /etc/network/interfaces (and the files of interfaces.d) into the nested
 * record Salt's Debian `ip` module builds (`_parse_interfaces`): per interface its `enabled`/
 * `hotplug` flags and per address family (`data.inet`, `data.inet6`) the checked options.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { checkOption, knownOption } from './_debian-ip-attrs.js';
import type { Adapter } from './_debian-ip-render.js';
import { pythonError } from './_py-exception.js';

export const NETWORK_FILE = '/etc/network/interfaces';
export const NETWORK_DIR = '/etc/network/interfaces.d/';

/** ifupdown's ethtool option names (the keys Salt keeps under `ethtool`). */
export const ETHTOOL_FILE_OPTS = new Set([
  'link-speed',
  'link-duplex',
  'ethernet-autoneg',
  'ethernet-port',
  'ethernet-wol',
  'driver-message-level',
  'ethernet-pause-rx',
  'ethernet-pause-tx',
  'ethernet-pause-autoneg',
  'offload-rx',
  'offload-tx',
  'offload-sg',
  'offload-tso',
  'offload-ufo',
  'offload-gso',
  'offload-lro',
  'offload-gro',
  'hardware-irq-coalesce-adaptive-rx',
  'hardware-irq-coalesce-adaptive-tx',
  'hardware-irq-coalesce-rx-usecs',
  'hardware-irq-coalesce-rx-frames',
  'hardware-dma-ring-rx',
  'hardware-dma-ring-rx-mini',
  'hardware-dma-ring-rx-jumbo',
  'hardware-dma-ring-tx',
]);

const CMD_ATTRS = new Set(['up', 'pre-up', 'post-up', 'down', 'pre-down', 'post-down']);

/** Python's `repr()` of a list of str, for the malformed-line message. */
const strListRepr = (xs: readonly string[]): string =>
  `[${xs.map((x) => `'${x.replace(/'/g, "\\'")}'`).join(', ')}]`;

/** The files Salt reads: the main file first, then every entry of interfaces.d. */
export function interfaceFiles(): string[] {
  const files: string[] = [];
  if (existsSync(NETWORK_DIR)) for (const f of readdirSync(NETWORK_DIR)) files.push(`${NETWORK_DIR}/${f}`);
  if (existsSync(NETWORK_FILE) && statSync(NETWORK_FILE).isFile()) files.unshift(NETWORK_FILE);
  return files;
}

function entry(adapters: Map<string, Adapter>, name: string): Adapter {
  let a = adapters.get(name);
  if (!a) {
    a = {};
    adapters.set(name, a);
  }
  return a;
}

function subRecord(parent: Adapter, key: string): Adapter {
  if (!(key in parent)) parent[key] = {};
  return parent[key] as Adapter;
}

function detail(iface: Adapter, line: string, addrfam: string): void {
  const trimmed = line.trimEnd().trimStart();
  const cut = trimmed.search(/\s/);
  if (cut < 0) throw pythonError('ValueError', 'not enough values to unpack (expected 2, got 1)');
  const attr = trimmed.slice(0, cut);
  const valuestr = trimmed.slice(cut).trimStart();
  if (knownOption(attr)) {
    const name = attr.replace(/-/g, '_');
    const [, value] = checkOption(attr, valuestr, addrfam);
    if (name === 'address' && 'address' in iface) {
      if (!('addresses' in iface)) iface.addresses = [];
      (iface.addresses as unknown[]).push(value);
    } else iface[name] = value;
  } else if (ETHTOOL_FILE_OPTS.has(attr)) subRecord(iface, 'ethtool')[attr] = valuestr;
  else if (attr.startsWith('bond') || attr.startsWith('bridge')) {
    const sep = attr.search(/[_-]/);
    if (sep < 0) throw pythonError('IndexError', 'list index out of range');
    const opt = attr.slice(sep + 1);
    subRecord(iface, attr.startsWith('bond') ? 'bonding' : 'bridging')[opt] = valuestr;
  } else if (CMD_ATTRS.has(attr)) {
    const key = `${attr.replace(/-/g, '_')}_cmds`;
    if (!(key in iface)) iface[key] = [];
    (iface[key] as string[]).push(valuestr);
  }
}

function parseFile(adapters: Map<string, Adapter>, file: string): void {
  let iface: Adapter = {};
  let addrfam = 'inet';
  for (const line of readFileSync(file, 'utf8').match(/[^\n]*\n|[^\n]+$/g) ?? []) {
    if (line.trimStart().startsWith('#') || /^\s+$/.test(line)) continue;
    if (line.startsWith('iface')) {
      const words = line.split(/\s+/).filter(Boolean);
      if (words.length !== 4)
        throw pythonError('AttributeError', `Interface file malformed: ${strListRepr(words)}.`);
      const [, name, fam, method] = words as [string, string, string, string];
      const data = subRecord(entry(adapters, name), 'data');
      iface = subRecord(data, fam);
      addrfam = fam;
      iface.addrfam = fam;
      iface.proto = method;
      iface.filename = file;
    } else if (/^\s/.test(line)) detail(iface, line, addrfam);
    else if (line.startsWith('auto'))
      for (const w of line.split(/\s+/).filter(Boolean).slice(1)) entry(adapters, w).enabled = true;
    else if (line.startsWith('allow-hotplug'))
      for (const w of line.split(/\s+/).filter(Boolean).slice(1)) entry(adapters, w).hotplug = true;
    else if (line.startsWith('source')) {
      const source = entry(adapters, 'source');
      if (!('data' in source)) source.data = { sources: [] };
      ((source.data as Adapter).sources as string[]).push(line.split(/\s+/).filter(Boolean)[1] ?? '');
    }
  }
}

/** Salt's `_parse_interfaces` with `_filter_malformed_interfaces`, in file order. */
export function parseInterfaces(files: readonly string[] = interfaceFiles()): Map<string, Adapter> {
  const adapters = new Map<string, Adapter>();
  for (const file of files) parseFile(adapters, file);
  for (const [name, a] of [...adapters]) {
    if (name === 'source') continue;
    if (!('data' in a)) {
      adapters.delete(name);
      continue;
    }
    for (const opt of ['ethtool', 'bonding', 'bridging']) {
      for (const inet of ['inet', 'inet6']) {
        const fam = (a.data as Adapter)[inet] as Adapter | undefined;
        if (fam && opt in fam) fam[`${opt}_keys`] = Object.keys(fam[opt] as Adapter).sort();
      }
    }
  }
  return adapters;
}
