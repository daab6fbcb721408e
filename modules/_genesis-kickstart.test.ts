import { describe, expect, it } from 'vitest';
import { PySystemExit } from './_argparse.js';
import { kickstartSls } from './_genesis-kickstart.js';
import { pyYamlDump } from './_yaml-dump.js';

// the expected texts are what Salt 3006.18's `genesis.mksls kickstart` returns for the same file
const STATIC = `lang de_DE.UTF-8
keyboard --xlayouts=de de
timezone Europe/Berlin --isUtc --ntpservers=0.pool.ntp.org
network --bootproto=static --device=ens3 --ip=192.168.1.10 --netmask=255.255.255.0 --gateway=192.168.1.1 --nameserver=8.8.8.8 --onboot=no --noipv6 --mtu=1500 --activate
network --bootproto=dhcp --device=ens4 --noipv4 --nodefroute --nodns --onboot=on
network --hostname=box.example.org
selinux --permissive
%packages --nobase --excludedocs
openssh-server
-vim
vim
core
@core
-
  tmux  
%end
`;

const fail = (text: string): PySystemExit => {
  try {
    kickstartSls(text);
  } catch (err) {
    if (err instanceof PySystemExit) return err;
    throw err;
  }
  throw new Error('no SystemExit');
};

const HEAD = 'lang en_US\nkeyboard us\ntimezone UTC\n';

describe('genesis.mksls kickstart', () => {
  it("builds Salt's SLS: interfaces, hostname, selinux mode, packages (a later line wins, excluded ones left out)", () => {
    expect(pyYamlDump(kickstartSls(STATIC))).toBe(`Europe/Berlin:
  timezone:
  - system
core:
  pkg_group:
  - installed
de:
  keyboard:
  - system
de_DE.UTF-8:
  locale:
  - system
ens3:
  activate:
    enabled:
    - true
  enabled: false
  gateway: 192.168.1.1
  ip: 192.168.1.10
  ipv6:
    enabled: false
  mtu: '1500'
  nameserver: 8.8.8.8
  netmask: 255.255.255.0
  proto: static
ens4:
  enabled: true
  ipv4:
    enabled: false
  nodefroute:
    enabled:
    - true
  nodns:
    enabled:
    - true
  proto: dhcp
openssh-server:
  pkg:
  - installed
permissive:
  selinux:
  - mode
system:
  network.system:
    apply_hostname: true
    enabled: true
    hostname: box.example.org
tmux:
  pkg:
  - installed
vim:
  pkg:
  - installed
`);
  });

  it('reads no command after the first %end, and adds the base group without --nobase', () => {
    expect(() =>
      kickstartSls('%packages\nbash\n%end\nlang fr_FR\nkeyboard fr\ntimezone Europe/Paris\n'),
    ).toThrow("'lang'");
    const sls = kickstartSls(
      `${HEAD}timezone UTC --utc\n%packages --ignoremissing\n@^minimal-environment\n%end\n`,
    );
    expect(sls).toMatchObject({
      base: { pkg_group: ['installed'] },
      '^minimal-environment': { pkg_group: ['installed'] },
      UTC: { timezone: ['system', 'utc'] },
    });
  });

  it("raises Salt's KeyErrors: %include, no %packages, an interface without --bootproto", () => {
    for (const [text, key] of [
      [`${HEAD}%include /tmp/part.ks\n%packages\n%end\n`, "'include'"],
      [HEAD, "'packages'"],
      [`${HEAD}network --device=eth0\n%packages\n%end\n`, "'bootproto'"],
    ] as const) {
      const err = (() => {
        try {
          kickstartSls(text);
        } catch (e) {
          return e as Error;
        }
      })();
      expect([err?.name, err?.message]).toEqual(['KeyError', key]);
    }
  });

  it("ends with argparse's usage error (exit 2) on a bad option, as Salt's reader does", () => {
    const bogus = fail(`${HEAD}firewall --bogus\n%packages\n%end\n`);
    expect(bogus.status).toBe(2);
    expect(bogus.message).toBe(
      'usage: salt-call [-h] [--enable] [--disable] [--port PORT] [--service SERVICE]\n' +
        '                 [--ssh] [--smtp] [--http] [--ftp]\n' +
        'salt-call: error: unrecognized arguments: --bogus',
    );
    expect(fail("lang en_US\nkeyboard --vckeymap=us --xlayouts='us'\n").message).toBe(
      'usage: salt-call [-h] [--vckeymap VCKEYMAP] [--xlayouts XLAYOUTS]\n' +
        '                 [--switch SWITCH]\n' +
        '                 keyboard\n' +
        'salt-call: error: the following arguments are required: keyboard',
    );
    expect(fail(`${HEAD}firewall --s\n`).message).toMatch(
      /error: ambiguous option: --s could match --service, --ssh, --smtp$/,
    );
    expect(fail(`${HEAD}network --bootproto=foo\n`).message).toMatch(
      /error: argument --bootproto: invalid choice: 'foo' \(choose from 'dhcp', 'bootp', 'static', 'ibft'\)$/,
    );
    expect(fail(`${HEAD}auth --enablekrb5\n`).message).toMatch(
      /error: the following arguments are required: --krb5realm$/,
    );
    const help = fail(`${HEAD}lang -h\n`);
    expect([help.status, help.message]).toEqual([
      0,
      'usage: salt-call [-h] lang\n\npositional arguments:\n  lang\n\noptions:\n  -h, --help  show this help message and exit',
    ]);
  });
});
