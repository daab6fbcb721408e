import { existsSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allowCustomExpire, isTokenShape, TokenStore } from './token-store.js';

function store(clock: { t: number }) {
  const dir = join(mkdtempSync(join(tmpdir(), 'netapi-tok-')), 'tokens');
  return new TokenStore(dir, () => clock.t);
}

describe('TokenStore', () => {
  it('creates a 40-hex token file (mode 600) and reads it back', async () => {
    const clock = { t: 1000.5 };
    const s = store(clock);
    const t = await s.create({ name: 'saltdev', eauth: 'file', groups: ['ops'] }, 60);
    expect(t.token).toMatch(/^[0-9a-f]{40}$/);
    expect(t).toMatchObject({
      name: 'saltdev',
      eauth: 'file',
      start: 1000.5,
      expire: 1060.5,
      groups: ['ops'],
    });
    expect(statSync(join(s.dir, t.token)).mode & 0o777).toBe(0o600);
    expect(await s.get(t.token)).toEqual(t);
  });
  it('refuses expired tokens and deletes them', async () => {
    const clock = { t: 0 };
    const s = store(clock);
    const t = await s.create({ name: 'u', eauth: 'file', groups: [] }, 10);
    clock.t = 10;
    expect(await s.get(t.token)).toBeUndefined();
    expect(existsSync(join(s.dir, t.token))).toBe(false);
  });
  it('revokes on remove', async () => {
    const s = store({ t: 0 });
    const t = await s.create({ name: 'u', eauth: 'file', groups: [] }, 10);
    await s.remove(t.token);
    expect(await s.get(t.token)).toBeUndefined();
  });
  it('never looks up a forged or traversing token', async () => {
    const s = store({ t: 0 });
    await s.create({ name: 'u', eauth: 'file', groups: [] }, 10);
    for (const bad of ['../../etc/passwd', '', 'A'.repeat(40), `${'a'.repeat(39)}/`, 42, null, undefined]) {
      expect(await s.get(bad)).toBeUndefined();
    }
    const forged = 'f'.repeat(40);
    writeFileSync(join(s.dir, forged), 'not msgpack of a token');
    expect(await s.get(forged)).toBeUndefined();
    expect(await s.get('0'.repeat(40))).toBeUndefined();
  });
  it('prune removes only expired tokens', async () => {
    const clock = { t: 0 };
    const s = store(clock);
    await s.create({ name: 'a', eauth: 'file', groups: [] }, 5);
    const keep = await s.create({ name: 'b', eauth: 'file', groups: [] }, 100);
    clock.t = 50;
    expect(await s.prune()).toBe(1);
    expect(readdirSync(s.dir)).toEqual([keep.token]);
  });
});

describe('helpers', () => {
  it('isTokenShape', () => {
    expect(isTokenShape('a'.repeat(40))).toBe(true);
    expect(isTokenShape('a'.repeat(41))).toBe(false);
  });
  it('allowCustomExpire as Salt decides it', () => {
    expect(allowCustomExpire(true, 'file', 'u')).toBe(true);
    expect(allowCustomExpire(false, 'file', 'u')).toBe(false);
    expect(allowCustomExpire(undefined, 'file', 'u')).toBe(false);
    expect(allowCustomExpire({ file: ['u'] }, 'file', 'u')).toBe(true);
    expect(allowCustomExpire({ file: ['u'] }, 'pam', 'u')).toBe(false);
    expect(allowCustomExpire({ file: 'u' }, 'file', 'u')).toBe(false);
  });
});
