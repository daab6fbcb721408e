import { describe, expect, it } from 'vitest';
import { repoVersions, restartServices } from './_pkg-apt-listings.js';

describe('repoVersions (Salt 3006.18 aptpkg.list_repo_pkgs)', () => {
  it('reads apt-cache dump: versions under their package, packages without one left out', () => {
    const dump =
      'Using Versioning System: Standard .deb\nPackage: a-virtual\nPackage: bash\n Version: 5.2-b13\n     File: /x\n  Depends: base-files 1\n Version: 5.2-b8\nPackage: zsh\n Version: 5.9\n';
    expect(repoVersions(dump)).toEqual({ bash: ['5.2-b13', '5.2-b8'], zsh: ['5.9'] });
  });

  it('reads apt-cache show, where a package repeats for each version', () => {
    const show =
      'Package: bash\nVersion: 2\nArchitecture: amd64\n\nPackage: bash\nVersion: 1\n\nPackage: zsh\nVersion: 5.9\n';
    expect(repoVersions(show)).toEqual({ bash: ['2', '1'], zsh: ['5.9'] });
  });
});

describe('restartServices (checkrestart --machine --package)', () => {
  it('takes the name of each SERVICE: line once', () => {
    const out =
      'PROCESSES: 3\nPROGRAMS: 2\nPACKAGES: 1\nSERVICE:ssh,1,/usr/sbin/sshd\nSERVICE:cron,2,/usr/sbin/cron\nSERVICE:ssh,3,x\nOTHER:x\n';
    expect(restartServices(out).sort()).toEqual(['cron', 'ssh']);
    expect(restartServices('SERVICE:nocomma')).toEqual(['nocomm']); // Python's line[8:-1]
  });
});
