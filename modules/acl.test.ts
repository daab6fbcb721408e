import { describe, expect, it } from 'vitest';
import { aclPrefix, parseGetfacl } from './acl.js';

const perms = (octal: number) => ({
  permissions: { read: (octal & 4) > 0, write: (octal & 2) > 0, execute: (octal & 1) > 0 },
  octal,
});

describe("Salt's getfacl parse", () => {
  it('names the owner for empty user/group fields, reads effective rights, keeps flags and defaults', () => {
    const out = [
      '# file: /srv/d',
      '# owner: web',
      '# group: www',
      '# flags: -st',
      'user::rwx',
      'user:nobody:rwx\t#effective:r-x',
      'group::r-x',
      'mask::r-x',
      'other::---',
      'default:user::rwx',
      'default:group:adm:r--',
      'default:mask::r--',
      'default:other::---',
      '',
      'getfacl: /nope: No such file or directory',
    ].join('\n');
    const got = parseGetfacl(out);
    expect(Object.keys(got['/srv/d']!)).toEqual([
      'comment',
      'user',
      'group',
      'sgid',
      'sticky',
      'mask',
      'other',
      'defaults',
    ]);
    expect(got).toEqual({
      '/srv/d': {
        comment: { file: '/srv/d', owner: 'web', group: 'www', flags: '-st' },
        user: [{ web: perms(7) }, { nobody: perms(5) }],
        group: [{ www: perms(5) }],
        sgid: true,
        sticky: true,
        mask: [{ '': perms(5) }],
        other: [{ '': perms(0) }],
        defaults: {
          user: [{ web: perms(7) }],
          group: [{ adm: perms(4) }],
          mask: [{ '': perms(4) }],
          other: [{ '': perms(0) }],
        },
      },
    });
  });

  it('maps ACL types to setfacl prefixes as Salt does', () => {
    expect(
      ['user', 'u', 'group', 'g', 'mask', 'm', 'other', 'd:user', 'default:group', 'd:m'].map(aclPrefix),
    ).toEqual(['u', 'u', 'g', 'g', 'm', 'm', '', 'd:u', 'd:g', 'd:m']);
  });
});
