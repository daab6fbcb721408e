/**
 * The global network settings Salt's Debian `ip` module reads and writes: /etc/default/networking
 * (`CONFIGURE_INTERFACES`), /etc/hostname and the domain and search lines of /etc/resolv.conf.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { pyTruthy } from '../kernel/python/index.js';
import { CONFIG_FALSE, CONFIG_TRUE, inConfig } from './_debian-ip-bond.js';
import { readLines } from './_debian-ip-render.js';
import { pythonError } from './_py-exception.js';

export const NETWORKING_FILE = '/etc/default/networking';
export const HOSTNAME_FILE = '/etc/hostname';
export const RESOLV_FILE = '/etc/resolv.conf';

/** Salt's `_read_file`: the lines of a file, or `''` where it cannot be read. */
export function readFileLines(file: string): string[] | '' {
  try {
    return readLines(readFileSync(file, 'utf8'));
  } catch {
    return '';
  }
}

/** The `domain` and `search` of resolv.conf as Salt's `parse_resolv` gives them; `{}` if unreadable. */
export function resolvDomains(file = RESOLV_FILE): { domain?: string; search?: string[] } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return {};
  }
  let domain = '';
  let search: string[] = [];
  for (const raw of text.split('\n')) {
    const words = raw.trim().split(/\s+/).filter(Boolean);
    if (words.length === 0) continue;
    const directive = (words[0] as string).toLowerCase();
    const args: string[] = [];
    for (const w of words.slice(1)) {
      if (w.startsWith('#') || w.startsWith(';')) break;
      args.push(w);
    }
    if (directive === 'domain' && args[0] !== undefined) domain = args[0];
    else if (directive === 'search') search = args;
  }
  return { domain, search };
}

/** Salt's `_parse_current_network_settings`, in its key order. */
export function currentNetworkSettings(): Record<string, unknown> {
  let networking = '';
  if (existsSync(NETWORKING_FILE) && statSync(NETWORKING_FILE).isFile()) {
    for (const line of readLines(readFileSync(NETWORKING_FILE, 'utf8'))) {
      if (line.startsWith('#')) continue;
      if (line.startsWith('CONFIGURE_INTERFACES')) networking = line.slice(line.indexOf('=') + 1).trim();
    }
  }
  const lines = readFileLines(HOSTNAME_FILE);
  const hostname = lines.length > 0 ? (lines[0] as string).split('\n')[0] : '';
  const resolv = resolvDomains();
  return { networking, hostname, domainname: resolv.domain ?? '', searchdomain: resolv.search ?? '' };
}

const VALID = [...CONFIG_TRUE, ...CONFIG_FALSE];
const networkError = (option: string, expected: readonly (string | boolean)[]): Error =>
  pythonError(
    'AttributeError',
    `Invalid network setting -- Setting: ${option}, Expected: [${expected.map((x) => (typeof x === 'boolean' ? (x ? 'True' : 'False') : x)).join('|')}]`,
  );

/** Salt's `_parse_network_settings`: `networking` (yes/no), `hostname`, and `search` if given. */
export function networkSettings(
  settings: Readonly<Record<string, unknown>>,
  current: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const opts = Object.fromEntries(Object.entries(settings).map(([k, v]) => [k.toLowerCase(), v]));
  const result: Record<string, unknown> = {};
  const networking = 'enabled' in opts ? opts.enabled : current.networking;
  if (inConfig(CONFIG_TRUE, networking)) result.networking = 'yes';
  else if (inConfig(CONFIG_FALSE, networking)) result.networking = 'no';
  else throw networkError('networking', VALID);
  const hostname = 'hostname' in opts ? opts.hostname : current.hostname;
  if (!pyTruthy(hostname ?? null)) throw networkError('hostname', ['server1.example.com']);
  result.hostname = hostname;
  if ('search' in opts) result.search = opts.search;
  return result;
}
