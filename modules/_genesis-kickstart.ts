/**
 * `genesis.mksls kickstart` (Salt's salt/utils/kickstart.py): a kickstart file read directive by
 * directive with one argparse parser each, then the SLS data Salt builds from it: locale,
 * keyboard, timezone, network interfaces and hostname, SELinux mode and packages. Salt's reader
 * is followed as it is: commands after the first `%end` are not read, `%include` and
 * `%ksappend` raise KeyError, an excluded package is left out, a bad option ends the call with
 * argparse's usage error.
 */
import type { ArgParser } from './_argparse.js';
import { kickstartParser } from './_genesis-kickstart-parsers.js';
import { pythonError } from './_py-exception.js';
import { shlexSplit } from './_shlex.js';

type Opts = Record<string, unknown>;

/** Python's `d[key]`, raising KeyError when absent. */
function get(d: Opts, key: string): unknown {
  if (!Object.hasOwn(d, key)) throw pythonError('KeyError', `'${key}'`);
  return d[key];
}

/** `shlex.split`, with Python's ValueError on a bad quote. */
function words(line: string): string[] {
  try {
    return shlexSplit(line);
  } catch (err) {
    throw pythonError('ValueError', (err as Error).message);
  }
}

/** Salt's `clean_args`: the parsed namespace without its empty values. */
function clean(ns: Record<string, unknown>): Opts {
  return Object.fromEntries(Object.entries(ns).filter(([, v]) => v !== null && v !== false && v !== ''));
}

/** One directive line through its parser, its name word dropped (Salt's `parse_<name>`). */
function parseWith(parser: ArgParser, line: string, rules = words(line).slice(1)): Opts {
  return clean(parser.parse(rules));
}

/** Splits a raid/volgroup line's member partitions from its name and options, as Salt does. */
function withPartitions(name: string, line: string): Opts {
  const [first, ...others] = words(line).slice(1);
  const kept = first === undefined ? [] : [first, ...others.filter((w) => w.startsWith('--'))];
  const partitions = others.filter((w) => !w.startsWith('--'));
  const args = parseWith(kickstartParser(name), line, kept);
  if (partitions.length) args.partitions = partitions;
  return args;
}

/** Directives that only mark their presence (Salt parses none of their options). */
const FLAGS = (
  'cdrom cmdline graphical halt harddrive install mediacheck nfs poweroff shutdown skipx ' +
  'text url zerombr'
).split(' ');
/** Directives that may repeat: a list of each line's options. */
const LISTS = new Set(['logvol', 'network', 'raid', 'part']);

/** Salt's `elif line.startswith(...)` chain, in its order: the directive a command line is. */
const COMMANDS = (
  'auth autopart autostep bootloader btrfs cdrom clearpart cmdline device dmraid driverdisk ' +
  'firewall firstboot group graphical halt harddrive ignoredisk install iscsi iscsiname ' +
  'keyboard lang logvol logging mediacheck monitor multipath network nfs part poweroff raid ' +
  'reboot repo rescue rootpw selinux services shutdown sshpw skipx text timezone updates ' +
  'upgrade url user vnc volgroup xconfig zerombr zfcp'
).split(' ');

function directiveOf(line: string): string | undefined {
  if (line.startsWith('auth ') || line.startsWith('authconfig ')) return 'auth';
  if (line.startsWith('part ') || line.startsWith('partition')) return 'part';
  return COMMANDS.find((c) => c !== 'auth' && c !== 'part' && line.startsWith(c));
}

/** One command line into `ks`, as Salt's command mode does. */
function readCommand(ks: Opts, line: string): void {
  const name = directiveOf(line);
  if (name === undefined) return;
  if (FLAGS.includes(name)) {
    ks[name] = true;
    return;
  }
  let value: unknown;
  if (name === 'raid' || name === 'volgroup') value = withPartitions(name, line);
  else if (name === 'device') {
    const rules = words(line).slice(1);
    const modulename = rules.shift();
    if (modulename === undefined) throw pythonError('IndexError', 'pop from empty list');
    value = { ...parseWith(kickstartParser('device'), line, rules), modulename };
  } else if (name === 'driverdisk' && !line.includes('--')) value = { partition: line };
  else if (name === 'updates') {
    const rules = words(line).slice(1);
    value = rules.length ? { url: rules[0] } : true;
  } else {
    const rules = words(line).slice(1);
    value = parseWith(kickstartParser(name, rules), line, rules);
    if (name === 'keyboard') {
      const kb = value as Opts;
      if ('keyboard' in kb && !('xlayouts' in kb)) kb.xlayouts = kb.keyboard;
    }
    if (name === 'upgrade' && !Object.keys(value as Opts).length) value = true;
  }
  if (LISTS.has(name)) ks[name] = [...((ks[name] as unknown[] | undefined) ?? []), value];
  else ks[name === 'autopart' ? 'autopath' : name] = value;
}

type Mode = 'command' | 'packages' | 'pre' | 'post' | null;

/** The directives of a kickstart text, as Salt's reader collects them. */
export function readKickstart(text: string): Opts {
  const ks: Opts = {};
  let mode: Mode = 'command';
  const lines = text.replace(/\r\n?/g, '\n').split(/(?<=\n)/);
  for (const line of lines) {
    if (line.startsWith('#') || line === '') continue;
    if (mode === 'command') readCommand(ks, line);
    if (line.startsWith('%include')) get(ks, 'include');
    if (line.startsWith('%ksappend')) get(ks, 'ksappend');
    if (line.startsWith('%packages')) {
      mode = 'packages';
      ks.packages ??= { packages: new Map<string, boolean>() };
      (ks.packages as Opts).options = parseWith(kickstartParser('%packages'), line);
      continue;
    }
    if (line.startsWith('%pre') || line.startsWith('%post')) {
      mode = line.startsWith('%pre') ? 'pre' : 'post';
      ks[mode] = { options: parseWith(kickstartParser(`%${mode}`), line) };
      continue;
    }
    if (line.startsWith('%end')) mode = null;
    if (mode === 'packages') {
      const pkgs = (ks.packages as Opts).packages as Map<string, boolean>;
      if (line.startsWith('-')) pkgs.set(line.replace('-', '').trim(), false);
      else pkgs.set(line.trim(), true);
    }
  }
  return ks;
}

/** Salt's SLS data for a kickstart text (what `mksls` dumps as YAML). */
export function kickstartSls(text: string): Record<string, unknown> {
  const ks = readKickstart(text);
  const sls = new Map<string, Record<string, unknown>>();
  sls.set(String(get(get(ks, 'lang') as Opts, 'lang')), { locale: ['system'] });
  sls.set(String(get(get(ks, 'keyboard') as Opts, 'xlayouts')), { keyboard: ['system'] });
  const tz = get(ks, 'timezone') as Opts;
  const zone = ['system'];
  sls.set(String(get(tz, 'timezone')), { timezone: zone });
  if ('utc' in tz) zone.push('utc');
  for (const iface of (ks.network ?? []) as Opts[]) {
    const device = iface.device;
    if (device !== undefined) {
      delete iface.device;
      const entry: Record<string, unknown> = { proto: get(iface, 'bootproto') };
      sls.set(String(device), entry);
      delete iface.bootproto;
      if ('onboot' in iface) {
        entry.enabled = !String(iface.onboot).includes('no');
        delete iface.onboot;
      }
      for (const [flag, key] of [
        ['noipv4', 'ipv4'],
        ['noipv6', 'ipv6'],
      ] as const)
        if (flag in iface) {
          entry[key] = { enabled: false };
          delete iface[flag];
        }
      for (const [option, value] of Object.entries(iface))
        entry[option] = typeof value === 'boolean' ? { enabled: [value] } : value;
    }
    if ('hostname' in iface)
      sls.set('system', {
        'network.system': { enabled: true, hostname: iface.hostname, apply_hostname: true },
      });
  }
  for (const mode of Object.keys((ks.selinux ?? {}) as Opts)) sls.set(mode, { selinux: ['mode'] });
  const packages = get(ks, 'packages') as Opts;
  if (!('nobase' in (get(packages, 'options') as Opts))) sls.set('base', { pkg_group: ['installed'] });
  for (const [name, wanted] of (get(packages, 'packages') as Map<string, boolean>).entries()) {
    if (!wanted || !name) continue;
    if (name.startsWith('@')) sls.set(name.replace('@', ''), { pkg_group: ['installed'] });
    else sls.set(name, { pkg: ['installed'] });
  }
  return Object.fromEntries(sls);
}
