import { describe, expect, it } from 'vitest';
import { loadVectors } from '../test/conformance/vectors.js';
import {
  keyListWhich,
  keyOutputter,
  renderFingerprints,
  renderKeyList,
  renderKeyOutput,
} from './key-list.js';

// Expected strings are what Salt 3006.18's salt/output/key.py prints for the same data.
const KEYS = {
  minions: ['vm1', 'a', 'B', 'web\x1b1'],
  minions_pre: [],
  minions_rejected: ['r1'],
  minions_denied: ['d1', 'c2'],
  local: ['master.pem', 'master.pub'],
};

describe('salt-key listings', () => {
  it('salt-key -L: Accepted, Denied, Unaccepted, Rejected, names sorted, empty headers kept', () => {
    expect(renderKeyList(KEYS, 'all', { color: false })).toBe(
      'Accepted Keys:\nB\na\nvm1\nweb?1\nDenied Keys:\nc2\nd1\nUnaccepted Keys:\nRejected Keys:\nr1',
    );
    expect(renderKeyList(KEYS, 'all', { color: true })).toBe(
      '\x1b[0;1;32mAccepted Keys:\x1b[0;0m\n\x1b[0;32mB\x1b[0;0m\n\x1b[0;32ma\x1b[0;0m\n\x1b[0;32mvm1\x1b[0;0m\n' +
        '\x1b[0;32mweb?1\x1b[0;0m\n\x1b[0;1;35mDenied Keys:\x1b[0;0m\n\x1b[0;35mc2\x1b[0;0m\n\x1b[0;35md1\x1b[0;0m\n' +
        '\x1b[0;1;31mUnaccepted Keys:\x1b[0;0m\n\x1b[0;1;34mRejected Keys:\x1b[0;0m\n\x1b[0;34mr1\x1b[0;0m',
    );
  });

  it('salt-key -l <status> prints one status, its header even when empty', () => {
    expect(renderKeyList(KEYS, 'acc', { color: false })).toBe('Accepted Keys:\nB\na\nvm1\nweb?1');
    expect(renderKeyList({ ...KEYS, minions: [] }, 'acc', { color: true })).toBe(
      '\x1b[0;1;32mAccepted Keys:\x1b[0;0m',
    );
    expect(renderKeyList({ ...KEYS, minions_pre: ['new1', 'new0'] }, 'pre', { color: true })).toBe(
      '\x1b[0;1;31mUnaccepted Keys:\x1b[0;0m\n\x1b[0;31mnew0\x1b[0;0m\n\x1b[0;31mnew1\x1b[0;0m',
    );
    expect(renderKeyList(KEYS, 'rej', { color: false })).toBe('Rejected Keys:\nr1');
    expect(renderKeyList(KEYS, 'den', { color: false })).toBe('Denied Keys:\nc2\nd1');
    expect(renderKeyList(KEYS, 'local', { color: true })).toBe(
      '\x1b[0;1;35mLocal Keys:\x1b[0;0m\n\x1b[0;35mmaster.pem\x1b[0;0m\n\x1b[0;35mmaster.pub\x1b[0;0m',
    );
  });

  it('maps -l arguments by Salt prefix rules', () => {
    expect(
      ['accepted', 'acc', 'pre', 'un', 'unaccepted', 'rej', 'denied', 'all', 'local', 'x'].map(keyListWhich),
    ).toEqual(['acc', 'acc', 'pre', 'pre', 'pre', 'rej', 'den', 'all', undefined, undefined]);
  });

  it('salt-key -F reproduces the golden salt_key_F_output byte for byte', () => {
    const vectors = loadVectors('keys/fingerprints') as {
      salt_key_F_output: string;
      files: Record<string, { pem_finger_sha256: string }>;
    };
    const finger = (f: string) => vectors.files[f]?.pem_finger_sha256 ?? '';
    const text = renderFingerprints(
      {
        minions: { vm1: finger('minion.pub') },
        local: { 'master.pub': finger('master.pub'), 'master.pem': finger('master.pem') },
        minions_pre: {},
      },
      { color: false },
    );
    expect(`${text}\n`).toBe(vectors.salt_key_F_output);
  });

  it('colours fingerprints like the key lists', () => {
    expect(
      renderFingerprints(
        { local: { 'master.pub': 'cc:dd', 'master.pem': 'aa:bb' }, minions: { vm1: 'ee:ff' } },
        { color: true },
      ),
    ).toBe(
      '\x1b[0;1;35mLocal Keys:\x1b[0;0m\n\x1b[0;35mmaster.pem:  aa:bb\x1b[0;0m\n\x1b[0;35mmaster.pub:  cc:dd\x1b[0;0m\n' +
        '\x1b[0;1;32mAccepted Keys:\x1b[0;0m\n\x1b[0;32mvm1:  ee:ff\x1b[0;0m',
    );
    expect(
      renderKeyOutput({ minions_denied: { z: '1', y: '2' }, minions_rejected: { q: '3' } }, { color: false }),
    ).toBe('Denied Keys:\ny:  2\nz:  1\nRejected Keys:\nq:  3');
  });

  it('prints other data nested as --out=key', () => {
    expect(keyOutputter.render({ minions: ['a'] }, { color: false })).toBe('Accepted Keys:\na');
    expect(keyOutputter.render('oops', { color: false })).toBe('oops');
  });
});
