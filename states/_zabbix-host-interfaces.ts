/**
 * How Salt's `zabbix_host.present` reads its `interfaces` argument: a list of one-key dicts,
 * `{<name>: [{type: agent|snmp|ipmi|jmx}, {ip: ...}, ...]}`, made into Zabbix interface
 * objects (type, main, useip, ip, dns, port, details as strings), main ones first; and how it
 * compares those with what `hostinterface_get` answers.
 */
import { pyStr, pyTruthy } from '../kernel/util.js';
import { pythonError } from '../modules/_py-exception.js';
import { pyEquals } from '../modules/_traverse.js';
import { pyInt } from './_py-int.js';

type Dict = Record<string, unknown>;

/** One interface as Salt builds it. */
export interface HostInterface {
  type: string;
  main: string;
  useip: string;
  ip: unknown;
  dns: unknown;
  port: string;
  details: Dict | [];
}

const ATTRS = new Set(['ip', 'dns', 'main', 'type', 'useip', 'port', 'details']);

/** Each type's Zabbix number and default port. */
const PORTS: Readonly<Record<string, readonly [string, string]>> = {
  agent: ['1', '10050'],
  snmp: ['2', '161'],
  ipmi: ['3', '623'],
  jmx: ['4', '12345'],
};

const isDict = (v: unknown): v is Dict => !!v && typeof v === 'object' && !Array.isArray(v);

/** Python's iteration of a value Salt iterates (a dict's keys, a list's items, a str's chars). */
function iter(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  if (isDict(v)) return Object.keys(v);
  if (typeof v === 'string') return [...v];
  throw pythonError(
    'TypeError',
    `'${v === null ? 'NoneType' : typeof v === 'number' ? 'int' : 'bool'}' object is not iterable`,
  );
}

/** Python's `d.get(key, fallback)`. */
export const get = (d: Dict, key: string, fallback: unknown): unknown => (key in d ? d[key] : fallback);

/** Python's `str(value).lower() == "true"` (default true), as Salt reads main, useip, active. */
export const flag = (d: Dict, key: string): string =>
  pyStr(get(d, key, 'true')).toLowerCase() === 'true' ? '1' : '0';

/** The SNMP details Salt sends, from the interface's `details` list of one-key dicts. */
function snmpDetails(value: Dict): Dict {
  if (!pyTruthy(get(value, 'details', false)))
    return { version: '2', bulk: '1', community: '{$SNMP_COMMUNITY}' };
  const given: Dict = {};
  for (const d of iter(value.details)) Object.assign(given, d as Dict);
  const details: Dict = {
    version: get(given, 'version', '2'),
    bulk: get(given, 'bulk', '1'),
    community: get(given, 'community', '{$SNMP_COMMUNITY}'),
  };
  if (details.version !== '3') return details;
  const level = get(given, 'securitylevel', '0');
  details.securitylevel = level;
  details.securityname = get(given, 'securityname', '');
  details.contextname = get(given, 'contextname', '');
  if (pyInt(level) > 0) {
    details.authpassphrase = get(given, 'authpassphrase', '');
    details.authprotocol = get(given, 'authprotocol', '0');
    if (pyInt(level) > 1) {
      details.privpassphrase = get(given, 'privpassphrase', '');
      details.privprotocol = get(given, 'privprotocol', '0');
    }
  }
  return details;
}

/**
 * The `{<name>: [{attr: value}, ...]}` items of a list, each name's attributes (those in
 * `attrs`) gathered into one dict, as Salt reads host interfaces and user medias.
 */
export function namedAttrs(data: unknown, attrs: ReadonlySet<string>): Map<string, Dict> {
  const byName = new Map<string, Dict>();
  for (const one of iter(JSON.parse(JSON.stringify(data)))) {
    for (const name of iter(one)) {
      const got: Dict = {};
      byName.set(String(name), got);
      for (const item of iter((one as Dict)[String(name)])) {
        if (!isDict(item))
          throw pythonError(
            'AttributeError',
            `'${typeof item === 'string' ? 'str' : 'list'}' object has no attribute 'items'`,
          );
        for (const [k, v] of Object.entries(item)) if (attrs.has(k)) got[k] = v;
      }
    }
  }
  return byName;
}

/** Salt's `_interface_format`: the state's `interfaces` as Zabbix interface objects. */
export function formatInterfaces(data: unknown): HostInterface[] {
  if (!pyTruthy(data)) return [];
  const byName = namedAttrs(data, ATTRS);
  const out: HostInterface[] = [];
  for (const [name, value] of byName) {
    if (!('type' in value)) throw pythonError('KeyError', "'type'");
    if (typeof value.type !== 'string')
      throw pythonError(
        'AttributeError',
        `'${typeof value.type === 'number' ? 'int' : 'NoneType'}' object has no attribute 'lower'`,
      );
    const kind = PORTS[value.type.toLowerCase()];
    if (kind === undefined) throw pythonError('KeyError', `'${value.type.toLowerCase()}'`);
    const type = kind[0];
    out.push({
      type,
      main: flag(value, 'main'),
      useip: flag(value, 'useip'),
      ip: get(value, 'ip', ''),
      dns: get(value, 'dns', name),
      port: pyStr(get(value, 'port', kind[1])),
      details: type === '2' ? snmpDetails(value) : [],
    });
  }
  // a stable sort on main, descending, as Python's: the main interfaces first
  return out.sort((a, b) => (a.main === b.main ? 0 : a.main > b.main ? -1 : 1));
}

/** What Salt compares of a host's current interfaces: without their ids (and 4.x's `bulk`). */
export function comparableInterfaces(current: Dict[]): Dict[] {
  return current.map((c) => {
    const x = { ...c };
    if (!('interfaceid' in x)) throw pythonError('KeyError', "'interfaceid'");
    delete x.interfaceid;
    if (!('hostid' in x)) throw pythonError('KeyError', "'hostid'");
    delete x.hostid;
    if ('bulk' in x) {
      delete x.bulk;
      x.details = x.type === '2' ? { version: '2', bulk: '1', community: '{$SNMP_COMMUNITY}' } : [];
    }
    return x;
  });
}

/** Salt's test of two lists of dicts: an item of either not in the other. */
export const listsDiffer = (wanted: readonly unknown[], current: readonly unknown[]): boolean =>
  wanted.some((w) => !current.some((c) => pyEquals(w, c))) ||
  current.some((c) => !wanted.some((w) => pyEquals(w, c)));
