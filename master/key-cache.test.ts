import { mkdirSync, mkdtempSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Crypticle } from '../kernel/crypt/crypticle.js';
import { KeyCache } from './key-cache.js';

let root: string;
let cache: KeyCache;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'key-cache-'));
  mkdirSync(join(root, 'pki', 'minions'), { recursive: true });
  mkdirSync(join(root, 'cache', 'sessions'), { recursive: true });
  cache = new KeyCache(join(root, 'pki'), join(root, 'cache'), { recheckMs: 0 });
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

function writeSession(id: string, key: string, mtime: number): void {
  const path = join(root, 'cache', 'sessions', id);
  writeFileSync(path, `${key}\n`);
  utimesSync(path, mtime, mtime);
}

describe('KeyCache', () => {
  it('returns the accepted key and notices its removal', () => {
    expect(cache.acceptedKey('web1')).toBeUndefined();
    writeFileSync(join(root, 'pki', 'minions', 'web1'), 'PEM1\n');
    expect(cache.acceptedKey('web1')).toBe('PEM1\n');
    rmSync(join(root, 'pki', 'minions', 'web1'));
    expect(cache.acceptedKey('web1')).toBeUndefined();
    expect(cache.acceptedKey('../x')).toBeUndefined();
  });

  it('opens what the session key sealed and follows a rotated key', () => {
    const k1 = Crypticle.generateKeyString();
    writeSession('web1', k1, 1000);
    const sealed = new Crypticle(k1).dumps({ a: 1 });
    expect(cache.session('web1')?.loads(sealed)).toEqual({ a: 1 });
    expect(cache.session('web1')).toBe(cache.session('web1'));
    const k2 = Crypticle.generateKeyString();
    writeSession('web1', k2, 2000);
    expect(() => cache.session('web1')?.loads(sealed)).toThrow();
    expect(cache.session('web1')?.loads(new Crypticle(k2).dumps('x'))).toBe('x');
    rmSync(join(root, 'cache', 'sessions', 'web1'));
    expect(cache.session('web1')).toBeUndefined();
  });

  it('learns a sign-in: key and session served without reading their files', () => {
    const k = Crypticle.generateKeyString();
    writeSession('db1', k, 3000);
    writeFileSync(join(root, 'pki', 'minions', 'db1'), 'PUB-ON-DISK');
    // trusted for a second, as the request server's caches are
    const cache = new KeyCache(join(root, 'pki'), join(root, 'cache'));
    const seen = cache.learn('db1', { pub: 'PUB-LEARNED', session: k });
    expect(seen.sessionMtimeMs).toBe(3_000_000);
    expect(seen.pubMtimeMs).toBeGreaterThan(0);
    // the files say otherwise now: a cache that read them would answer from disk
    writeFileSync(join(root, 'cache', 'sessions', 'db1'), Crypticle.generateKeyString());
    expect(cache.session('db1')).toBe(seen.session);
    expect(cache.acceptedKey('db1')).toBe('PUB-LEARNED');
    expect(cache.sessionFor('db1', k)).toBe(seen.session);
    expect(cache.sessionFor('db1', Crypticle.generateKeyString())).not.toBe(seen.session);
    // a learned entry whose file is gone is not kept
    expect(cache.learn('gone', { session: k }).sessionMtimeMs).toBeUndefined();
    expect(cache.session('gone')).toBeUndefined();
  });

  it("takes in another thread's sign-in only while the files are as that thread saw them", () => {
    const k = Crypticle.generateKeyString();
    writeSession('web2', k, 3000);
    const pubPath = join(root, 'pki', 'minions', 'web2');
    writeFileSync(pubPath, 'PUB-NOW');
    utimesSync(pubPath, 3000, 3000);
    const cache = new KeyCache(join(root, 'pki'), join(root, 'cache'));
    // what a worker signed in, with the files' mtimes as it saw them
    const fromWorker = (pubMtimeMs?: number, sessionMtimeMs?: number) =>
      cache.learnFrom({ id: 'web2', pub: 'PUB-SEEN', session: k, pubMtimeMs, sessionMtimeMs });
    // as the worker saw them: taken in without a read
    fromWorker(3_000_000, 3_000_000);
    expect(cache.acceptedKey('web2')).toBe('PUB-SEEN');
    expect(cache.session('web2')?.keyString).toBe(k);
    // the key was replaced after the worker's sign-in, and the session went: the files win
    const k2 = Crypticle.generateKeyString();
    writeSession('web2', k2, 4000);
    fromWorker(2_000_000, 3_000_000);
    expect(cache.acceptedKey('web2')).toBe('PUB-NOW');
    expect(cache.session('web2')?.keyString).toBe(k2);
    // no mtime: nothing taken in
    rmSync(join(root, 'cache', 'sessions', 'web2'));
    fromWorker();
    expect(cache.session('web2')).toBeUndefined();
    expect(cache.acceptedKey('web2')).toBe('PUB-NOW');
  });

  it('keeps one Crypticle per minion, the same one while its key is unchanged', () => {
    const n = 300;
    const first = new Map<string, Crypticle | undefined>();
    for (let i = 0; i < n; i++) {
      const id = `m${i}`;
      writeSession(id, Crypticle.generateKeyString(), 1000);
      first.set(id, cache.session(id));
    }
    expect(cache.sizes).toEqual({ pubs: 0, sessions: n });
    for (const [id, c] of first) {
      expect(c).toBeInstanceOf(Crypticle);
      expect(cache.session(id)).toBe(c);
    }
  });

  it('trusts an entry for a while without looking at its file, and re-reads at once when asked', () => {
    const slow = new KeyCache(join(root, 'pki'), join(root, 'cache'), { recheckMs: 60_000 });
    writeFileSync(join(root, 'pki', 'minions', 'web1'), 'PEM1\n');
    expect(slow.acceptedKey('web1')).toBe('PEM1\n');
    rmSync(join(root, 'pki', 'minions', 'web1'));
    expect(slow.acceptedKey('web1')).toBe('PEM1\n');
    const k1 = Crypticle.generateKeyString();
    writeSession('web1', k1, 1000);
    expect(slow.session('web1')?.loads(new Crypticle(k1).dumps(1))).toBe(1);
    const k2 = Crypticle.generateKeyString();
    writeSession('web1', k2, 2000);
    expect(() => slow.session('web1')?.loads(new Crypticle(k2).dumps(2))).toThrow();
    expect(slow.session('web1', { fresh: true })?.loads(new Crypticle(k2).dumps(2))).toBe(2);
  });

  it('checks a settled folder instead of each file, and sees a key renamed into or out of it', () => {
    const dir = join(root, 'pki', 'minions');
    const file = join(dir, 'web1');
    const minuteAgo = Date.now() / 1000 - 60;
    const settle = () => utimesSync(dir, minuteAgo, minuteAgo);
    writeFileSync(file, 'PEM1\n');
    settle();
    const longBackstop = new KeyCache(join(root, 'pki'), join(root, 'cache'), { recheckMs: 0 });
    const noBackstop = new KeyCache(join(root, 'pki'), join(root, 'cache'), { recheckMs: 0, backstopMs: 0 });
    for (const c of [longBackstop, noBackstop]) expect(c.acceptedKey('web1')).toBe('PEM1\n');
    for (const c of [longBackstop, noBackstop]) expect(c.acceptedKey('web1')).toBe('PEM1\n');
    // edited in place (no rename): the folder's mtime does not move, so only the backstop's
    // stat of the file sees it; this is what shows the file is not stat'ed per request
    writeFileSync(file, 'PEM2\n');
    utimesSync(file, minuteAgo + 1, minuteAgo + 1);
    settle();
    expect(longBackstop.acceptedKey('web1')).toBe('PEM1\n');
    expect(noBackstop.acceptedKey('web1')).toBe('PEM2\n');
    // written and renamed into place, as tsalt and salt-key write keys: seen at once
    writeFileSync(join(dir, '.web1.tmp'), 'PEM3\n');
    renameSync(join(dir, '.web1.tmp'), file);
    expect(longBackstop.acceptedKey('web1')).toBe('PEM3\n');
    // ... and removed
    rmSync(file);
    expect(longBackstop.acceptedKey('web1')).toBeUndefined();
  });

  it('does not trust a folder changed within the last second: its mtime may not have moved', () => {
    const dir = join(root, 'pki', 'minions');
    const file = join(dir, 'web1');
    writeFileSync(file, 'PEM1\n');
    const c = new KeyCache(join(root, 'pki'), join(root, 'cache'), { recheckMs: 0 });
    expect(c.acceptedKey('web1')).toBe('PEM1\n');
    expect(c.acceptedKey('web1')).toBe('PEM1\n');
    // edited in place while the folder is fresh (as after a sign-in storm): its file is stat'ed
    writeFileSync(file, 'PEM2\n');
    const later = Date.now() / 1000 + 5;
    utimesSync(file, later, later);
    expect(c.acceptedKey('web1')).toBe('PEM2\n');
  });
});
