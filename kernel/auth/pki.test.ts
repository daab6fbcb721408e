import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ensurePkiDirs, listKeys, writeKey, writeKeySync } from './pki.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

describe('key files', () => {
  it('a key being written is never listed under another name (the temp file is hidden)', async () => {
    const pki = await mkdtemp(join(tmpdir(), 'tsalt-pki-'));
    dirs.push(pki);
    await ensurePkiDirs(pki);
    const seen = new Set<string>();
    for (let round = 0; round < 200; round++) {
      const writes = [writeKey(pki, 'pending', 'web1', `pem ${round}`)];
      writeKeySync(pki, 'pending', 'web2', `pem ${round}`);
      const [listing] = await Promise.all([listKeys(pki), ...writes]);
      for (const id of listing.minions_pre) seen.add(id);
    }
    expect([...seen].sort()).toEqual(['web1', 'web2']);
    expect(await readdir(join(pki, 'minions_pre'))).toEqual(expect.arrayContaining(['web1', 'web2']));
  });
});
