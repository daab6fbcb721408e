import { describe, expect, it } from 'vitest';
import { preseedSls, xmlToDict } from './_genesis-mksls.js';
import { parseXml } from './_xml-tree.js';
import { pyYamlDump } from './_yaml-dump.js';

const PRESEED = `# comment
d-i languagechooser/language-name-fb select German
d-i kbd-chooser/method select de
d-i time/zone string Europe/Berlin
d-i tzconfig/gmt boolean true
d-i netcfg/choose_interface select eth0
d-i netcfg/confirm_static boolean true
d-i netcfg/disable_dhcp boolean true
d-i netcfg/get_netmask string 255.255.255.0
d-i netcfg/get_domain string example.com
d-i netcfg/get_gateway string 10.0.0.1
d-i netcfg/get_hostname string web1
d-i netcfg/get_ipaddress string 10.0.0.10
d-i netcfg/get_nameservers string "10.0.0.1 8.8.8.8"
`;

describe('genesis.mksls readers', () => {
  it("turns a preseed into Salt's SLS data (no proto: Salt compares a dict with text)", () => {
    expect(pyYamlDump(preseedSls(PRESEED))).toBe(`Europe/Berlin:
  timezone:
  - system
  - utc
German:
  locale:
  - system
de:
  keyboard:
  - system
eth0:
  domain: example.com
  enabled: true
  gateway: 10.0.0.1
  hostname: web1
  ipaddress: 10.0.0.10
  nameservers: 10.0.0.1 8.8.8.8
  netmask: 255.255.255.0
`);
    expect(() => preseedSls('d-i time/zone string UTC\n')).toThrow("'languagechooser'");
  });

  it("reads AutoYAST XML as Salt's xmlutil.to_dict: repeats as a list of one-key dicts", () => {
    const xml =
      '<profile xmlns="http://x"><software><packages><package>vim</package><package>git</package></packages></software><tz>UTC</tz></profile>';
    expect(xmlToDict(parseXml(Buffer.from(xml)))).toEqual({
      software: { packages: { package: ['vim', { package: 'git' }] } },
      tz: 'UTC',
    });
  });
});
