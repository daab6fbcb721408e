import { describe, expect, it } from 'vitest';
import { parseKeyListing, shapeKey } from './_gpg-keys.js';

// gpg 2.2's `--list-keys --fingerprint --fingerprint --with-keygrip --with-colons --fixed-list-mode`
// for two keys (the second with an expiry, a `:` escaped in its second uid, a signing-only
// subkey's fingerprint that must not replace the primary's)
const LISTING = [
  'tru::1:1795904011:0:3:1:5',
  'pub:u:1024:1:FFD4A5116041736B:1795903988:::u:::scESC::::::::0:',
  'fpr:::::::::FD562CD26DA99651281FBBA6FFD4A5116041736B:',
  'grp:::::::::A2E9A0073F0C407477394AC3E0DB12E4119E58EB:',
  'uid:u::::1795903988::707C985373BD0D4AC903363300529B79EC59614E::Alice Test (cmp) <alice@gpg16.test>::::::::::0:',
  'sub:u:1024:1:01B737DA71B009BE:1795903999::::::e:::::::',
  'fpr:::::::::04EC9C2B256CAA96A03EFBA801B737DA71B009BE:',
  'pub:f:2048:1:7B90E79BFB5A9AC7:1795903988:1893499200::m:::scESC::::::::0:',
  'fpr:::::::::7F3C4642027FC03FA9B1E02B7B90E79BFB5A9AC7:',
  'uid:f::::1795903988::3045262716D4A773B55C8FCA291A6DBC00378F01::Bob Test <bob@gpg16.test>::::::::::0:',
  'uid:f::::1795903988::3045262716D4A773B55C8FCA291A6DBC00378F02::Bob\\x3a work <bob@work.test>::::::::::0:',
  '',
  'pub:u:1024:1:0000000000000001:1795903988:::u:::scESC::::::::0:',
].join('\n');

describe('gpg key listings (python-gnupg ListKeys, Salt list_keys)', () => {
  it('reads keys, their primary fingerprints and unescaped uids, stopping at an empty line', () => {
    const keys = parseKeyListing(LISTING);
    expect(keys.map((k) => k.keyid)).toEqual(['FFD4A5116041736B', '7B90E79BFB5A9AC7']);
    expect(keys[0]?.fingerprint).toBe('FD562CD26DA99651281FBBA6FFD4A5116041736B');
    expect(keys[1]?.uids).toEqual(['Bob Test <bob@gpg16.test>', 'Bob: work <bob@work.test>']);
    expect(keys[1]).toMatchObject({ length: '2048', expires: '1893499200', ownertrust: 'm', trust: 'f' });
  });

  it("shapes a key as Salt's: local dates, trust words, no expires when there is none", () => {
    const [alice, bob] = parseKeyListing(LISTING);
    const shaped = shapeKey(alice as NonNullable<typeof alice>);
    expect(Object.keys(shaped)).toEqual([
      'keyid',
      'fingerprint',
      'uids',
      'created',
      'keyLength',
      'ownerTrust',
      'trust',
    ]);
    expect(shaped).toMatchObject({ ownerTrust: 'Ultimately Trusted', trust: 'Ultimately Trusted' });
    expect(shaped.created).toMatch(/^2026-11-2\d$/);
    const b = shapeKey(bob as NonNullable<typeof bob>);
    expect(b).toMatchObject({ ownerTrust: 'Marginally Trusted', trust: 'Fully Trusted' });
    expect(b.expires).toMatch(/^2030-01-0\d$/);
  });

  it('raises for a trust letter Salt does not map', () => {
    const [k] = parseKeyListing('pub:z:1024:1:AB:1:::u:::s:');
    expect(() => shapeKey(k as NonNullable<typeof k>)).toThrow(/KeyError: 'z'/);
  });
});
