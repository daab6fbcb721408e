/**
 * Salt's `ip` execution module on Debian (`salt/modules/debian_ip.py`): ifupdown's
 * /etc/network/interfaces, bonding files in /etc/modprobe.d, route scripts in
 * /etc/network/if-up.d and if-down.d, /etc/default/networking and the hostname/domain.
 * Functions that write take `test=True` and then return the text without writing it.
 */
import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { defineFunction, defineModule, type ExecContext } from '../kernel/index.js';
import { pyStr, pyTruthy } from '../kernel/python/index.js';
import { bondSettings, CONFIG_TRUE, ifaceError, inConfig } from './_debian-ip-bond.js';
import {
  currentNetworkSettings,
  NETWORKING_FILE,
  networkSettings,
  RESOLV_FILE,
  readFileLines,
  resolvDomains,
} from './_debian-ip-network.js';
import { NETWORK_DIR, NETWORK_FILE, parseInterfaces } from './_debian-ip-parse.js';
import {
  type Adapter,
  readLines,
  renderBondConf,
  renderDisplayNetwork,
  renderEth,
  renderNetworking,
  renderRoutes,
  renderSource,
  splitLines,
} from './_debian-ip-render.js';
import { ethAdapter, sourceAdapter } from './_debian-ip-settings.js';
import { cleanKwargs } from './_invalid-kwargs.js';
import { pythonError } from './_py-exception.js';

const MODPROBE_DIR = '/etc/modprobe.d/';
const UP_DIR = '/etc/network/if-up.d/';
const DOWN_DIR = '/etc/network/if-down.d/';
const IFACE_TYPES = [
  'eth',
  'bond',
  'alias',
  'clone',
  'ipsec',
  'dialup',
  'bridge',
  'slave',
  'vlan',
  'pppoe',
  'source',
];

type Settings = Record<string, unknown>;

const isTest = (s: Settings): boolean => 'test' in s && pyTruthy(s.test ?? null);

const ubuntuFrom = (grains: ExecContext['grains'], major: number, key: 'os' | 'osfullname'): boolean =>
  grains[key] === 'Ubuntu' &&
  Number.parseInt(String(grains.osrelease ?? '0').split('.')[0] ?? '0', 10) >= major;

/** Writes `data` to `folder/name`, refusing where the folder is missing (Salt's `_write_file`). */
function writeIn(folder: string, name: string, data: string): string {
  const file = path.join(folder, name);
  if (!existsSync(folder))
    throw pythonError('AttributeError', `${file} cannot be written. ${folder} does not exist`);
  writeFileSync(file, data);
  return file;
}

const linesOf = (file: string): string[] => {
  const lines = readFileLines(file);
  return lines === '' ? [] : lines;
};

async function buildBond(ctx: ExecContext, iface: string, settings: Settings): Promise<string[] | ''> {
  const opts = bondSettings(settings, iface, ubuntuFrom(ctx.grains, 16, 'os'));
  const data = renderBondConf(iface, opts);
  if (isTest(settings)) return readLines(data);
  const file = writeIn(MODPROBE_DIR, `${iface}.conf`, data);
  await ctx.call('kmod.load', ['bonding']);
  await ctx.call('pkg.install', ['ifenslave']);
  return readFileLines(file);
}

/** Salt's `_write_file_ifaces`: the interfaces file with `iface` replaced, or its own file. */
function writeIfaces(iface: string, adapter: Adapter, settings: Settings): string[] {
  const adapters = parseInterfaces();
  adapters.set(iface, adapter);
  let all = '';
  let own = '';
  for (const [name, a] of adapters) {
    const text = a.type === 'source' ? renderSource(a) : renderEth(name, a);
    all += text;
    if (name === iface) own = text;
  }
  const named = 'filename' in settings ? pyStr(settings.filename) : undefined;
  const file = named === undefined ? NETWORK_FILE : named.startsWith('/') ? named : `${NETWORK_DIR}/${named}`;
  if (!existsSync(path.dirname(file)))
    throw pythonError('AttributeError', `${path.dirname(file)} cannot be written.`);
  writeFileSync(file, named === undefined ? all : own);
  return splitLines(own);
}

async function buildInterface(
  ctx: ExecContext,
  iface: string,
  ifaceType: unknown,
  enabled: unknown,
  settings: Settings,
) {
  if (typeof ifaceType !== 'string')
    throw pythonError('AttributeError', `'${pyTypeName(ifaceType)}' object has no attribute 'lower'`);
  const type = ifaceType.toLowerCase();
  if (!IFACE_TYPES.includes(type)) throw ifaceError(iface, type, IFACE_TYPES);
  const test = isTest(settings);
  if (type === 'slave') {
    settings.slave = 'yes';
    if (!('master' in settings))
      throw pythonError('AttributeError', 'master is a required setting for slave interfaces');
  } else if (type === 'vlan') {
    settings.vlan = 'yes';
    if (!test) await ctx.call('pkg.install', ['vlan']);
  } else if (type === 'pppoe') {
    settings.pppoe = 'yes';
  } else if (type === 'bond' && !('slaves' in settings)) {
    throw pythonError('AttributeError', 'slaves is a required setting for bond interfaces');
  } else if (type === 'bridge') {
    if (!('ports' in settings))
      throw pythonError(
        'AttributeError',
        'ports is a required setting for bridge interfaces on Debian or Ubuntu based systems',
      );
    if (!test) await ctx.call('pkg.install', ['bridge-utils']);
  }
  let adapter: Adapter;
  if (type === 'source') adapter = sourceAdapter(settings, type);
  else if (['eth', 'bond', 'bridge', 'slave', 'vlan', 'pppoe'].includes(type))
    adapter = ethAdapter(settings, type, pyTruthy(enabled ?? null), iface, ubuntuFrom(ctx.grains, 16, 'os'));
  else
    throw pythonError(
      'UnboundLocalError',
      "cannot access local variable 'opts' where it is not associated with a value",
    );
  if (test) return splitLines(renderEth(iface, adapter));
  if (type === 'pppoe') throw pythonError('NotImplementedError', 'tsalt does not write pppoe peer files yet');
  return writeIfaces(iface, adapter, settings);
}

function pyTypeName(v: unknown): string {
  if (v === null || v === undefined) return 'NoneType';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float';
  if (Array.isArray(v)) return 'list';
  return typeof v === 'object' ? 'dict' : 'str';
}

function buildRoutes(iface: string, settings: Settings): string[] {
  const opts = Object.fromEntries(Object.entries(settings).map(([k, v]) => [k.toLowerCase(), v]));
  if (!('routes' in opts))
    throw pythonError(
      'AttributeError',
      `Invalid option -- Route interface: ${iface}, Option: routes, Expected: [List of routes]`,
    );
  const add = renderRoutes('add', opts.routes, iface);
  const del = renderRoutes('del', opts.routes, iface);
  if (isTest(settings)) return readLines(add + del);
  const name = `route-${iface.replace(/\./g, '_')}`;
  const up = writeIn(UP_DIR, name, add);
  chmodSync(up, 0o755);
  const down = writeIn(DOWN_DIR, name, del);
  chmodSync(down, 0o755);
  return [...linesOf(up), ...linesOf(down)];
}

/** Both route scripts' lines; `''` when neither exists, as Salt's `'' + ''` gives. */
function getRoutes(iface: string): string[] | '' {
  const up = readFileLines(path.join(UP_DIR, `route-${iface}`));
  const down = readFileLines(path.join(DOWN_DIR, `route-${iface}`));
  if (up === '' && down === '') return '';
  if (up === '') throw pythonError('TypeError', 'can only concatenate str (not "list") to str');
  return [...up, ...(down === '' ? [] : down)];
}

function getInterface(iface: string): string[] {
  const adapter = parseInterfaces().get(iface);
  if (!adapter) return [];
  return splitLines(iface === 'source' ? renderSource(adapter) : renderEth(iface, adapter));
}

async function serviceState(ctx: ExecContext): Promise<string> {
  if (!(await ctx.call('service.available', ['networking']))) return 'no';
  return (await ctx.call('service.status', ['networking'])) ? 'yes' : 'no';
}

async function getNetworkSettings(ctx: ExecContext): Promise<string[]> {
  let settings: Record<string, unknown>;
  if (ubuntuFrom(ctx.grains, 12, 'osfullname')) {
    const cur = currentNetworkSettings();
    settings = { networking: await serviceState(ctx), hostname: cur.hostname, domainname: cur.domainname };
  } else settings = currentNetworkSettings();
  return readLines(renderDisplayNetwork(settings));
}

/** The new resolv.conf text Salt writes when the domain or search changes. */
function newResolv(domain: unknown, search: unknown): string {
  const resolv = resolvDomains();
  const lines: string[] = linesOf(RESOLV_FILE).map((l) =>
    /^domain\s+/.test(l) ? `domain ${pyStr(domain)}` : /^search\s+/.test(l) ? `search ${pyStr(search)}` : l,
  );
  if (!('domain' in resolv)) lines.unshift(`domain ${pyStr(domain)}`);
  if (!('search' in resolv)) lines.splice('domain' in resolv ? 1 : 0, 0, `search ${pyStr(search)}`);
  return lines.join('\n');
}

async function buildNetworkSettings(ctx: ExecContext, settings: Settings): Promise<string[]> {
  const current = currentNetworkSettings();
  const opts = networkSettings(settings, current);
  const test = isTest(settings);
  if (ubuntuFrom(ctx.grains, 12, 'osfullname')) {
    const fn = opts.networking === 'yes' ? 'service.enable' : 'service.disable';
    for (const svc of ['NetworkManager', 'networking'])
      if (await ctx.call('service.available', [svc])) await ctx.call(fn, [svc]);
  } else {
    const text = renderNetworking(opts.networking);
    if (test) return readLines(text);
    writeFileSync(NETWORKING_FILE, text);
  }
  const parts = pyStr(opts.hostname).split('.');
  opts.hostname = parts[0];
  const newDomain = parts.length > 1 && parts.slice(1).join('.') !== current.domainname;
  opts.domainname = parts.length > 1 ? parts.slice(1).join('.') : current.domainname;
  const newSearch = 'search' in opts && opts.search !== current.searchdomain;
  opts.searchdomain = 'search' in opts ? opts.search : current.searchdomain;
  if ((newDomain || newSearch) && !test) {
    if (!existsSync(RESOLV_FILE))
      throw pythonError(
        'AttributeError',
        `${RESOLV_FILE} cannot be written. ${RESOLV_FILE} does not exist and create is setto False`,
      );
    writeFileSync(RESOLV_FILE, newResolv(opts.domainname, opts.searchdomain));
  }
  return readLines(renderDisplayNetwork(opts));
}

async function applyNetworkSettings(ctx: ExecContext, settings: Settings): Promise<boolean> {
  const requireReboot = 'require_reboot' in settings ? settings.require_reboot : false;
  const applyHostname = 'apply_hostname' in settings ? settings.apply_hostname : false;
  let hostnameRes: unknown = true;
  if (inConfig(CONFIG_TRUE, applyHostname)) {
    if ('hostname' in settings) hostnameRes = await ctx.call('network.mod_hostname', [settings.hostname]);
    else {
      ctx.log.warn('The network state sls is trying to apply hostname changes but no hostname is defined.');
      hostnameRes = false;
    }
  }
  let res: unknown = true;
  if (inConfig(CONFIG_TRUE, requireReboot))
    ctx.log.warn(
      'The network state sls is requiring a reboot of the system to properly apply network configuration.',
    );
  else {
    const stop = await ctx.call('service.stop', ['networking']);
    await new Promise((r) => setTimeout(r, 2000));
    res = pyTruthy(stop ?? null) ? await ctx.call('service.start', ['networking']) : stop;
  }
  return (pyTruthy(hostnameRes ?? null) ? res : hostnameRes) as boolean;
}

async function upDown(
  ctx: ExecContext,
  program: 'ifup' | 'ifdown',
  iface: unknown,
  ifaceType: unknown,
): Promise<unknown> {
  if (ifaceType === 'slave' || ifaceType === 'source') return null;
  return ctx.call('cmd.run', [[program, iface]]);
}

export default defineModule({
  name: 'ip',
  doc: 'The networking module for Debian-based distros: ifupdown interfaces, bonds, routes and global settings.',
  virtual: (ctx) =>
    ctx.grains.os_family === 'Debian'
      ? true
      : { ok: false, reason: 'The debian_ip module could not be loaded: unsupported OS family' },
  functions: {
    build_bond: defineFunction({
      args: (z) => z.object({ iface: z.unknown().transform(pyStr) }),
      varkw: true,
      doc: "Create a bond script in /etc/modprobe.d with the passed settings and load the bonding kernel module.\n\nCLI Example: salt '*' ip.build_bond bond0 mode=balance-alb",
      run: (ctx, a, extra) => buildBond(ctx, a.iface, cleanKwargs(extra.kwargs)),
    }),
    build_interface: defineFunction({
      args: (z) =>
        z.object({ iface: z.unknown().transform(pyStr), iface_type: z.unknown(), enabled: z.unknown() }),
      varkw: true,
      doc: "Build an interface script for a network interface.\n\nCLI Example: salt '*' ip.build_interface eth0 eth <settings>",
      run: (ctx, a, extra) =>
        buildInterface(ctx, a.iface, a.iface_type, a.enabled, cleanKwargs(extra.kwargs)),
    }),
    build_routes: defineFunction({
      args: (z) => z.object({ iface: z.unknown().transform(pyStr) }),
      varkw: true,
      doc: "Add route scripts for a network interface using up commands.\n\nCLI Example: salt '*' ip.build_routes eth0 <settings>",
      run: (_ctx, a, extra) => buildRoutes(a.iface, cleanKwargs(extra.kwargs)),
    }),
    down: defineFunction({
      args: (z) => z.object({ iface: z.unknown(), iface_type: z.unknown() }),
      doc: "Shutdown a network interface\n\nCLI Example: salt '*' ip.down eth0 eth",
      run: (ctx, a) => upDown(ctx, 'ifdown', a.iface, a.iface_type),
    }),
    get_bond: defineFunction({
      args: (z) => z.object({ iface: z.unknown().transform(pyStr) }),
      doc: "Return the content of a bond script\n\nCLI Example: salt '*' ip.get_bond bond0",
      run: (_ctx, a) => readFileLines(path.join(MODPROBE_DIR, `${a.iface}.conf`)),
    }),
    get_interface: defineFunction({
      args: (z) => z.object({ iface: z.unknown().transform(pyStr) }),
      doc: "Return the contents of an interface script\n\nCLI Example: salt '*' ip.get_interface eth0",
      run: (_ctx, a) => getInterface(a.iface),
    }),
    up: defineFunction({
      args: (z) => z.object({ iface: z.unknown(), iface_type: z.unknown() }),
      doc: "Start up a network interface\n\nCLI Example: salt '*' ip.up eth0 eth",
      run: (ctx, a) => upDown(ctx, 'ifup', a.iface, a.iface_type),
    }),
    get_network_settings: defineFunction({
      doc: "Return the contents of the global network script.\n\nCLI Example: salt '*' ip.get_network_settings",
      run: (ctx) => getNetworkSettings(ctx),
    }),
    get_routes: defineFunction({
      args: (z) => z.object({ iface: z.unknown().transform(pyStr) }),
      doc: "Return the routes for the interface\n\nCLI Example: salt '*' ip.get_routes eth0",
      run: (_ctx, a) => getRoutes(a.iface),
    }),
    apply_network_settings: defineFunction({
      varkw: true,
      doc: "Apply global network configuration.\n\nCLI Example: salt '*' ip.apply_network_settings",
      run: (ctx, _a, extra) => applyNetworkSettings(ctx, cleanKwargs(extra.kwargs)),
    }),
    build_network_settings: defineFunction({
      varkw: true,
      doc: "Build the global network script.\n\nCLI Example: salt '*' ip.build_network_settings <settings>",
      run: (ctx, _a, extra) => buildNetworkSettings(ctx, cleanKwargs(extra.kwargs)),
    }),
  },
});
