import { describe, expect, it } from 'vitest';
import {
  deriveOs,
  linuxDistributionGrains,
  osReleaseData,
  parseLsbRelease,
  parseOsRelease,
} from './os-release.js';

const DEBIAN = `PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"
NAME="Debian GNU/Linux"
VERSION_ID="12"
VERSION="12 (bookworm)"
VERSION_CODENAME=bookworm
ID=debian
HOME_URL="https://www.debian.org/"
`;
const UBUNTU = `PRETTY_NAME="Ubuntu 22.04.4 LTS"
NAME="Ubuntu"
VERSION_ID="22.04"
VERSION="22.04.4 LTS (Jammy Jellyfish)"
VERSION_CODENAME=jammy
ID=ubuntu
ID_LIKE=debian
`;
const UBUNTU_LSB = `DISTRIB_ID=Ubuntu
DISTRIB_RELEASE=22.04
DISTRIB_CODENAME=jammy
DISTRIB_DESCRIPTION="Ubuntu 22.04.4 LTS"
`;
const ROCKY = `NAME="Rocky Linux"
VERSION="9.3 (Blue Onyx)"
ID="rocky"
ID_LIKE="rhel centos fedora"
VERSION_ID="9.3"
PRETTY_NAME="Rocky Linux 9.3 (Blue Onyx)"
`;
const FEDORA = `NAME="Fedora Linux"
VERSION="39 (Container Image)"
ID=fedora
VERSION_ID=39
VERSION_CODENAME=""
PRETTY_NAME="Fedora Linux 39 (Container Image)"
`;
const ALPINE = `NAME="Alpine Linux"
ID=alpine
VERSION_ID=3.19.1
PRETTY_NAME="Alpine Linux v3.19"
`;

describe('os-release parsing', () => {
  it('reads quoted and unquoted values, unescapes shell characters, keeps Salt defaults', () => {
    const rel = parseOsRelease('NAME="A \\"B\\""\nID=\'x\'\n# comment\n');
    expect(rel.NAME).toBe('A "B"');
    expect(rel.ID).toBe('x');
    expect(parseOsRelease('')).toEqual({ NAME: 'Linux', ID: 'linux', PRETTY_NAME: 'Linux' });
  });

  it('reads lsb-release', () => {
    expect(parseLsbRelease(UBUNTU_LSB)).toEqual({
      lsb_distrib_id: 'Ubuntu',
      lsb_distrib_release: '22.04',
      lsb_distrib_codename: 'jammy',
      lsb_distrib_description: 'Ubuntu 22.04.4 LTS',
    });
  });
});

describe('OS grains as Salt derives them', () => {
  it('Debian 12', () => {
    expect(linuxDistributionGrains(parseOsRelease(DEBIAN))).toMatchObject({
      os: 'Debian',
      os_family: 'Debian',
      osfullname: 'Debian GNU/Linux',
      osrelease: '12',
      oscodename: 'bookworm',
      lsb_distrib_id: 'Debian GNU/Linux',
    });
    expect(osReleaseData('Debian', 'Debian GNU/Linux', '12')).toEqual({
      osrelease_info: [12],
      osmajorrelease: 12,
      osfinger: 'Debian-12',
    });
  });

  it('Ubuntu 22.04 with lsb-release', () => {
    const g = linuxDistributionGrains(parseOsRelease(UBUNTU), parseLsbRelease(UBUNTU_LSB));
    expect(g).toMatchObject({ os: 'Ubuntu', os_family: 'Debian', osfullname: 'Ubuntu', osrelease: '22.04' });
    expect(g.oscodename).toBe('jammy');
    expect(osReleaseData('Ubuntu', 'Ubuntu', '22.04')).toEqual({
      osrelease_info: [22, 4],
      osmajorrelease: 22,
      osfinger: 'Ubuntu-22.04',
    });
  });

  it('Rocky takes the codename from VERSION, Fedora and Alpine map their families', () => {
    expect(linuxDistributionGrains(parseOsRelease(ROCKY))).toMatchObject({
      os: 'Rocky',
      os_family: 'RedHat',
      osrelease: '9.3',
      osfullname: 'Rocky Linux',
    });
    expect(linuxDistributionGrains(parseOsRelease(FEDORA))).toMatchObject({
      os: 'Fedora',
      os_family: 'RedHat',
      osrelease: '39',
    });
    expect(linuxDistributionGrains(parseOsRelease(ALPINE))).toMatchObject({
      os: 'Alpine',
      os_family: 'Alpine',
      osrelease: '3.19.1',
    });
    expect(osReleaseData('Alpine', 'Alpine Linux', '3.19.1')).toMatchObject({
      osrelease_info: [3, 19, 1],
      osmajorrelease: 3,
      osfinger: 'Alpine Linux-3',
    });
  });

  it('derives os like Salt', () => {
    expect(deriveOs('Red Hat Enterprise Linux')).toBe('RedHat');
    expect(deriveOs('CentOS Stream')).toBe('CentOS Stream');
    expect(deriveOs('Linux Mint')).toBe('Mint');
    expect(deriveOs('Pop!_OS', 'pop')).toBe('Pop');
    expect(deriveOs('Arch Linux')).toBe('Arch');
  });

  it('keeps non-numeric release parts as text', () => {
    expect(osReleaseData('Foo', 'Foo', '7.x')).toMatchObject({ osrelease_info: [7, 'x'], osmajorrelease: 7 });
    expect(osReleaseData('Foo', 'Foo', 'rolling')).not.toHaveProperty('osmajorrelease');
  });
});
