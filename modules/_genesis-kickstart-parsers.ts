/**
 * The argparse parser Salt's kickstart reader (salt/utils/kickstart.py) builds for each
 * directive, written one line each: `name` stores a value, `name!` stores true, `name+`
 * appends, `name*` is required, `a|b` are aliases, `=dest` names the key, `:x,y` lists the
 * choices, `<name>` is a positional. Options are `--name`; the order is Salt's (argparse's
 * usage lists them so).
 */
import { ArgParser, type ArgSpec } from './_argparse.js';

/** auth's flag options, before its valued ones. */
const AUTH_FLAGS =
  'back test nostart kickstart probe enablecache disablecache disablenis enableshadow disableshadow ' +
  'enablemd5 disablemd5 enableldap enableldapauth enableldaptls disableldap disableldapauth ' +
  'enablekrb5kdcdns disablekrb5kdcdns enablekrb5realmdns disablekrb5realmdns disablekrb5 ' +
  'disablehe-siod enablesmbauth disablesmbauth enablewinbind enablewinbindauth disablewinbind ' +
  'disablewinbindauth enablewinbindusedefaultdomain disablewinbindusedefaultdomain enablewins disablewins';

const AUTH_VALUES =
  'enablenis hesiodrhs krb5adminserver+ krb5kdc+ ldapbasedn ldapserver+ nisserver+ passalgo smbidmapgid ' +
  'smbidmapuid smbrealm smbsecurity:user,server,domain,dns smbservers smbworkgroup winbindjoin ' +
  'winbindseparator winbindtemplatehomedir winbindtemplateprimarygroup winbindtemplateshell';

const PARSERS: Readonly<Record<string, string>> = {
  autopart: 'type encrypted! passphrase escrowcert backuppassphrase',
  autostep: 'autoscreenshot',
  bootloader: 'append driveorder location password md5pass upgrade! timeout boot-drive=bootdrive',
  btrfs: 'name data metadata label noformat! useexisting! subvol!',
  clearpart: 'all! drives init_label! linux! none! initlabel!=init_label list',
  device: 'opts',
  dmraid: 'name dev',
  driverdisk: 'source biospart',
  firewall: 'enable|enabled! disable|disabled! port service ssh! smtp! http! ftp!',
  firstboot: 'enable|enabled! disable|disabled! reconfig!',
  group: 'name gid',
  ignoredisk: 'drives only-use interactive!',
  iscsi: 'ipaddr port target iface user password reverse-user reverse-password',
  iscsiname: '',
  keyboard: 'vckeymap xlayouts switch <keyboard>',
  lang: '<lang>',
  logvol:
    '<mntpoint> noformat! useexisting! fstype fsoptions grow! maxsize recommended! percent! encrypted! passphrase escrowcert backuppassphrase! name vgname size label',
  logging: 'host port level:debug,info,warning,error,critical',
  monitor: 'hsync monitor noprobe! vsync',
  multipath: 'name device rule',
  network:
    'bootproto:dhcp,bootp,static,ibft device ip ipv6 gateway nodefroute! nameserver nodns! netmask hostname ethtool essid wepkey wpakey onboot dhcpclass mtu noipv4! noipv6! activate!',
  part: '<mntpoint> size grow! maxsize noformat! onpart|usepart ondisk|ondrive asprimary! fsprofile fstype fsoptions label recommended! onbiosdisk encrypted! passphrase escrowcert backupphrase',
  raid: '<mntpoint> level device spares fstype fsoptions label noformat! useexisting! encrypted! passphrase escrowcert backuppassphrase',
  reboot: 'eject!',
  repo: 'name baseurl mirrorlist cost excludepkgs includepkgs proxy ignoregroups noverifyssl!',
  rescue: 'nomount! romount!',
  rootpw: 'iscrypted! plaintext! lock! <password>',
  selinux: 'disabled! enforcing! permissive!',
  services: 'disabled enabled',
  sshpw: 'username iscrypted! plaintext! lock!',
  timezone: 'utc! nontp! ntpservers isUtc!=isutc <timezone>',
  upgrade: 'root-device',
  user: 'name gecos groups homedir lock! password iscrypted! plaintext! shell uid',
  vnc: 'host port password',
  volgroup: '<name> noformat! useexisting! pesize reserved-space reserved-percent',
  xconfig: 'defaultdesktop startxonboot!',
  zfcp: 'devnum fcplun wwpn',
  '%packages': 'default! excludedocs! ignoremissing! instLangs multilib! nodefaults! optional! nobase!',
  '%pre': 'interpreter erroronfail! log',
  '%post': 'nochroot! interpreter erroronfail! log',
};

/** One entry of the notation above as an argparse argument. */
function spec(token: string): ArgSpec {
  const m = /^(<)?([\w|-]+)>?([!+*]?)(?:=([\w-]+))?(?::(\S+))?$/.exec(token);
  if (!m) throw new Error(`bad kickstart parser entry ${token}`);
  const [, positional, names = '', mark, dest, choices] = m;
  const first = names.split('|')[0] ?? names;
  const out: ArgSpec = {
    flags: positional ? [] : names.split('|').map((n) => `--${n}`),
    dest: dest ?? first,
    action: mark === '!' ? 'store_true' : mark === '+' ? 'append' : 'store',
  };
  if (mark === '*') out.required = true;
  if (choices) out.choices = choices.split(',');
  return out;
}

function build(prog: string, table: string): ArgParser {
  const parser = new ArgParser(prog);
  for (const token of table.split(/\s+/).filter(Boolean)) parser.add(spec(token));
  return parser;
}

/**
 * The parser for a directive (`part` for part/partition; `%packages`, `%pre`, `%post` for the
 * section headers). auth's depends on its words: `--enablekrb5` makes `--krb5realm` required,
 * `--enablehesiod` makes `--hesiodlhs` required, as Salt adds them only then.
 */
export function kickstartParser(name: string, rules: readonly string[] = [], prog = 'salt-call'): ArgParser {
  if (name !== 'auth') return build(prog, PARSERS[name] ?? '');
  const flags = AUTH_FLAGS.split(' ').map((n) => `${n}!`);
  const krb5 = rules.includes('--enablekrb5') ? ' krb5realm*' : '';
  const hesiod = rules.includes('--enablehesiod') ? ' hesiodlhs*' : '';
  return build(prog, `${flags.join(' ')} ${AUTH_VALUES} enablekrb5!${krb5} enablehesiod!${hesiod}`);
}
