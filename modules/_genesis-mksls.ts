/**
 * `genesis.mksls`'s readers (Salt's salt/utils/preseed.py and yast.py): a Debian preseed file
 * or an AutoYAST XML file turned into the data Salt dumps as SLS YAML. A preseed without the
 * keys Salt's reader looks up raises Salt's KeyError.
 */
import { pythonError } from './_py-exception.js';
import { shlexSplit } from './_shlex.js';
import type { XmlElement } from './_xml-tree.js';

type Tree = { [key: string]: Tree | string };

/** `tree[key]`, raising Python's KeyError when absent. */
function get(tree: Tree | string | undefined, key: string): Tree | string {
  const v = typeof tree === 'object' ? tree[key] : undefined;
  if (v === undefined) throw pythonError('KeyError', `'${key}'`);
  return v;
}

const path = (tree: Tree, ...keys: string[]): Tree | string => keys.reduce<Tree | string>(get, tree);

/** The `owner question type [value]` lines of a preseed file as nested dicts. */
function preseedOptions(text: string): Tree {
  const opts: Tree = {};
  for (const line of text.split(/(?<=\n)/)) {
    if (line.startsWith('#') || !line.trim()) continue;
    const comps = shlexSplit(line);
    const owner = comps[0] ?? '';
    opts[owner] ??= {};
    let pointer = opts[owner] as Tree;
    if (comps[1] === undefined) throw pythonError('IndexError', 'list index out of range');
    for (const part of comps[1].split('/')) {
      pointer[part] ??= {};
      pointer = pointer[part] as Tree;
    }
    if (comps[2] === undefined) throw pythonError('IndexError', 'list index out of range');
    pointer.type = comps[2];
    if (comps.length > 3) pointer.argument = comps[3] ?? '';
  }
  return opts;
}

/** Salt's preseed `mksls` data: locale, keyboard, timezone and the network interface. */
export function preseedSls(text: string): Record<string, Record<string, unknown>> {
  const opts = preseedOptions(text);
  const di = get(opts, 'd-i') as Tree;
  const sls: Record<string, Record<string, unknown>> = {};
  sls[String(path(di, 'languagechooser', 'language-name-fb', 'argument'))] = { locale: ['system'] };
  sls[String(path(di, 'kbd-chooser', 'method', 'argument'))] = { keyboard: ['system'] };
  const timezone = String(path(di, 'time', 'zone', 'argument'));
  const zone: string[] = ['system'];
  sls[timezone] = { timezone: zone };
  if (path(di, 'tzconfig', 'gmt', 'argument') === 'true') zone.push('utc');
  if ('netcfg' in di) {
    const arg = (key: string) => path(di, 'netcfg', key, 'argument');
    const iface = String(arg('choose_interface'));
    // Salt compares the confirm_static and disable_dhcp sub-dicts with text: never equal, no proto
    path(di, 'netcfg', 'confirm_static');
    path(di, 'netcfg', 'disable_dhcp');
    sls[iface] = {
      enabled: true,
      netmask: arg('get_netmask'),
      domain: arg('get_domain'),
      gateway: arg('get_gateway'),
      hostname: arg('get_hostname'),
      ipaddress: arg('get_ipaddress'),
      nameservers: arg('get_nameservers'),
    };
  }
  return sls;
}

const localName = (tag: string): string => (tag.includes('}') ? (tag.split('}')[1] ?? '') : tag);

/** Salt's `xmlutil.to_dict` without attributes: children by name, repeats as lists, leaves as text. */
export function xmlToDict(el: XmlElement): unknown {
  if (el.children.length === 0) return { [localName(el.tag)]: el.text };
  const out: Record<string, unknown> = {};
  for (const item of el.children) {
    const name = localName(item.tag);
    if (!(name in out)) {
      out[name] = item.children.length > 0 ? xmlToDict(item) : item.text;
      continue;
    }
    const seen = out[name];
    const list = Array.isArray(seen) ? seen : [seen];
    list.push(xmlToDict(item));
    out[name] = list;
  }
  return out;
}
