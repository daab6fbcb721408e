import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CHUNK, ensureKeys, loadKeys } from './key-cache.js';

describe('swarm key cache', () => {
  const dir = mkdtempSync(join(tmpdir(), 'swarm-keys-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('generates whole chunks once, then reuses them', async () => {
    const made = await ensureKeys(dir, 3, { bits: 512 });
    expect(made).toBe(CHUNK);
    expect(readdirSync(dir)).toEqual(['keys-0000.json']);
    expect(await ensureKeys(dir, CHUNK, { bits: 512 })).toBe(0);
  }, 60_000);

  it('loads pairs by index, distinct and in Salt formats', () => {
    const keys = loadKeys(dir, 1, 3);
    expect(keys).toHaveLength(3);
    expect(keys[0]?.privatePem).toContain('BEGIN RSA PRIVATE KEY');
    expect(keys[0]?.publicPem).toContain('BEGIN PUBLIC KEY');
    expect(new Set(keys.map((k) => k.publicPem)).size).toBe(3);
    expect(loadKeys(dir, 2, 1)[0]).toEqual(keys[1]);
    const pooled = loadKeys(dir, 0, 5, 2);
    expect(pooled[4]).toEqual(pooled[0]);
    expect(pooled[3]).toEqual(pooled[1]);
  });

  it('makes a damaged chunk again and refuses to load a missing one', async () => {
    expect(() => loadKeys(dir, CHUNK, 1)).toThrow(/missing/);
    writeFileSync(join(dir, 'keys-0000.json'), '[]');
    expect(await ensureKeys(dir, 1, { bits: 512 })).toBe(CHUNK);
    expect(loadKeys(dir, 0, 1)).toHaveLength(1);
  }, 60_000);
});
