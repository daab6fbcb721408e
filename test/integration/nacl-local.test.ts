// The nacl module and the nacl and dson renderers through a real masterless `salt-call --local`.
// Expected values are what Salt 3006.18's salt-call gave for the same files and calls (PyNaCl
// made the ciphertext below); bytes show as Python's repr in JSON output, as in Salt.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { localCaller } from '../support/local-call.js';

const SK = '0bEtqylDHRfD6TgLJYLUk/bS6Vc4YP4r2fRHk8blT0s=';
const SEALED_HELLO = 'sjX5qjTB1h3p61KlBVHHVsVXYTkjIbvI/1NYJm13OWEzvujI/zTNhrdPTSPeRWK/FrWux4M=';
const root = mkdtempSync(join(tmpdir(), 'tsalt-nacl-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const call = localCaller(root, 'nacl-local');
// the default secret key file: <pki_dir>/master/nacl, pki_dir under the minion's root_dir
const keyDir = join(root, 'root/etc/salt/pki/minion/master');
mkdirSync(keyDir, { recursive: true });
writeFileSync(join(keyDir, 'nacl'), `${SK}\n`);
mkdirSync(join(root, 'pillar'), { recursive: true });
mkdirSync(join(root, 'srv'), { recursive: true });
writeFileSync(join(root, 'pillar/top.sls'), "base:\n  '*':\n    - secrets\n");
writeFileSync(
  join(root, 'pillar/secrets.sls'),
  `#!yaml|nacl\nn_a: NACL[${SEALED_HELLO}]\nn_b: ["NACL[${SEALED_HELLO}]", plain, 3]\nn_c: xNACL[${SEALED_HELLO}]\n`,
);
writeFileSync(join(root, 'srv/d.sls'), '#!dson\nsuch "x" is "y" wow\n');

describe('nacl through salt-call --local', () => {
  it('keygen writes a key pair; enc and dec round-trip through the CLI', async () => {
    const sk = join(root, 'k');
    const made = await call('nacl.keygen', `sk_file=${sk}`);
    expect(made.local).toBe(`saved sk_file:${sk}  pk_file: ${sk}.pub`);
    const enc = await call('nacl.enc', 'data=s3cr3t', `pk_file=${sk}.pub`);
    expect(enc.local).toMatch(/^b'[A-Za-z0-9+/=]+'$/);
    const dec = await call('nacl.dec', `data=${String(enc.local).slice(2, -1)}`, `sk_file=${sk}`);
    expect(dec.local).toBe("b's3cr3t'");
  }, 120_000);

  it('the nacl renderer decrypts NACL[...] pillar values with the default key file', async () => {
    const r = await call('pillar.items');
    expect(r.local).toEqual({
      n_a: "b'hello'",
      n_b: ["b'hello'", 'plain', 3],
      n_c: `xNACL[${SEALED_HELLO}]`,
    });
  }, 120_000);

  it('the dson renderer fails as Salt does without a DSON library', async () => {
    const r = await call('state.show_sls', 'd');
    expect(JSON.stringify(r.local)).toContain("module 'dson' has no attribute 'loads'");
  }, 120_000);
});
