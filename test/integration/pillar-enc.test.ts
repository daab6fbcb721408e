// `pillar_enc=gpg`: a `pillar=` override encrypted to the minion's gpg key, published through a
// real master to a real minion, decrypted on the minion with its own keyring (made here, thrown
// away after) for pillar.items and state.apply, as Salt 3006 does.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from '../../tools/local-cluster.js';
import { gpgKey, killGpgAgent } from '../support/gpg-key.js';

const top = mkdtempSync(join(tmpdir(), 'tsalt-pillar-enc-'));
const keydir = join(top, 'gpgkeys');
const states = join(top, 'states');
const pillarDir = join(top, 'pillar');
const c = new Cluster({ master: { file_roots: { base: [states] }, pillar_roots: { base: [pillarDir] } } });
let secret = '';
let wholeMapping = '';

/** The armored ciphertext with its newlines written as `\n`, as users pass it on the command line. */
const oneLine = (armored: string) => armored.trim().split('\n').join('\\n');

beforeAll(async () => {
  const encrypt = gpgKey(keydir, 'enc@example.invalid');
  secret = oneLine(encrypt('s3cret'));
  wholeMapping = oneLine(encrypt('db:\n  pw: hunter2\n'));
  mkdirSync(states, { recursive: true });
  mkdirSync(pillarDir, { recursive: true });
  writeFileSync(join(pillarDir, 'top.sls'), "base:\n  '*':\n    - p\n");
  writeFileSync(join(pillarDir, 'p.sls'), 'plain: 1\n');
  writeFileSync(
    join(states, 's.sls'),
    "show:\n  test.show_notification:\n    - text: {{ pillar.get('secret', 'none') }} {{ pillar.get('db', {}).get('pw', 'none') }}\n",
  );
  await c.startMaster();
  await c.startMinion('enc1', { gpg_keydir: keydir });
}, 120_000);
afterAll(async () => {
  await c.stop();
  killGpgAgent(keydir);
  rmSync(top, { recursive: true, force: true });
});

describe('pillar_enc', () => {
  it('pillar.items decrypts a PGP value at any depth of the override', async () => {
    const { data } = await c.saltJson([
      'enc1',
      'pillar.items',
      `pillar={'secret': '${secret}', 'n': {'x': ['${secret}']}}`,
      'pillar_enc=gpg',
    ]);
    expect(data.enc1).toEqual({ plain: 1, secret: 's3cret', n: { x: ['s3cret'] } });
  });

  it('without pillar_enc the ciphertext stays as given', async () => {
    const { data } = await c.saltJson(['enc1', 'pillar.items', `pillar={'secret': '${secret}'}`]);
    expect((data.enc1 as Record<string, string>).secret).toMatch(/^-----BEGIN PGP MESSAGE-----\\n/);
  });

  it("a renderer not in decrypt_pillar_renderers is Salt's error", async () => {
    const { data } = await c.saltJson([
      'enc1',
      'pillar.items',
      `pillar={'secret': '${secret}'}`,
      'pillar_enc=GPG',
    ]);
    expect(data.enc1).toBe(
      "ERROR: Failed to decrypt pillar override: 'GPG' is not a valid decryption renderer. Valid choices are: gpg",
    );
  });

  it('state.apply decrypts a value, and a whole encrypted mapping (pillar_enc lower-cased)', async () => {
    const comment = async (pillar: string, enc: string) => {
      const { data } = await c.saltJson([
        'enc1',
        'state.apply',
        's',
        `pillar=${pillar}`,
        `pillar_enc=${enc}`,
      ]);
      const ret = data.enc1 as Record<string, { comment: string }>;
      return ret['test_|-show_|-show_|-show_notification']?.comment;
    };
    expect(await comment(`{'secret': '${secret}'}`, 'gpg')).toBe('s3cret none');
    expect(await comment(`'${wholeMapping}'`, 'GPG')).toBe('none hunter2');
  });
});
