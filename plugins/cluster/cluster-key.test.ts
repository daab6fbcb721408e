import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { clusterKeyPath, loadClusterKey } from './cluster-key.js';

describe('the cluster key', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tsalt-ckey-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is made once, 0600, and every master starting at once reads the same key', async () => {
    const sub = join(dir, 'shared');
    const keys = await Promise.all([1, 2, 3, 4].map(() => loadClusterKey(sub)));
    expect(keys[0]).toHaveLength(32);
    for (const k of keys) expect(k.equals(keys[0]!)).toBe(true);
    expect(statSync(clusterKeyPath(sub)).mode & 0o777).toBe(0o600);
    expect((await loadClusterKey(sub)).equals(keys[0]!)).toBe(true);
    expect(readFileSync(clusterKeyPath(sub), 'utf8').trim()).toBe(keys[0]!.toString('base64'));
  });

  it('a malformed key file stops the start with CLUSTER_ERR_KEY', async () => {
    const sub = join(dir, 'bad');
    await loadClusterKey(sub);
    writeFileSync(clusterKeyPath(sub), 'c2hvcnQ=\n');
    await expect(loadClusterKey(sub)).rejects.toMatchObject({ code: 'CLUSTER_ERR_KEY' });
    writeFileSync(clusterKeyPath(sub), 'not base64!\n');
    await expect(loadClusterKey(sub)).rejects.toMatchObject({ code: 'CLUSTER_ERR_KEY' });
  });
});
