import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UnitLogger } from '../../kernel/index.js';
import { packIpc, unpackIpc } from '../../kernel/util.js';
import { applySdb, holdsSdbUri } from './apply-config.js';
import { defineSdb, type SdbContext } from './define.js';
import { setProcessSdbKinds } from './find-driver.js';
import { sdbDelete, sdbGet, sdbGetOrSetHash, sdbSet } from './sdb.js';

/** A logger that keeps every line, to check that no value read ever reaches a log. */
function recordingLog(): UnitLogger & { lines: string[] } {
  const lines: string[] = [];
  const at = (obj: object | string, msg?: string) => {
    lines.push(typeof obj === 'string' ? obj : `${JSON.stringify(obj)} ${msg ?? ''}`);
  };
  return { lines, trace: at, debug: at, info: at, warn: at, error: at };
}

describe('sdb', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tsalt-sdb-'));
  const log = recordingLog();
  const a = join(dir, 'a.yaml');
  const b = join(dir, 'b.yaml');
  const opts: Record<string, unknown> = {
    extension_modules: join(dir, 'extmods'),
    sdb_dirs: [join(dir, 'drivers')],
    extensions: ['tsalt-ext-acme'],
    osenv: { driver: 'env' },
    myyaml: { driver: 'yaml', files: [a, join(dir, 'missing.yaml'), b] },
    lists: { driver: 'yaml', files: [a, b], merge: { merge_lists: true } },
    kv: { driver: 'sqlite3', database: join(dir, 'sdb.sqlite') },
    badprof: { driver: 'nosuchdriver' },
    nodriver: { foo: 'bar' },
    acme: { driver: 'acme_kv', values: { k: 'from-package' } },
    local: { driver: 'local_memo' },
    pillar: { pprof: { driver: 'yaml', files: [b] } },
  };
  const ctx: SdbContext = { opts, log };

  beforeAll(() => {
    writeFileSync(
      a,
      'app:\n  db: {user: admin, pass: s3cret-a}\n  hosts: [h1, h2]\nlist:\n  - name: one\n  - name: two\n',
    );
    writeFileSync(b, 'app:\n  db: {pass: s3cret-b}\n  hosts: [h3]\nextra: 7\n');
    mkdirSync(join(dir, 'drivers'), { recursive: true });
    writeFileSync(
      join(dir, 'drivers', 'memo.mjs'),
      "export default { name: 'local_memo', get: (key) => 'memo:' + key };\n",
    );
    writeFileSync(join(dir, 'drivers', 'broken.mjs'), 'export default { name: 42 };\n');
    process.env.TSALT_SDB_TEST = 'hello';
  });
  afterAll(() => {
    delete process.env.TSALT_SDB_TEST;
    delete process.env.TSALT_SDB_NEW;
    setProcessSdbKinds(undefined);
    rmSync(dir, { recursive: true, force: true });
  });

  it('returns a value that is not an sdb URI, or names no profile, as it is (Salt non-strict)', async () => {
    expect(await sdbGet('plainvalue', ctx)).toBe('plainvalue');
    expect(await sdbGet(42, ctx)).toBe(42);
    expect(await sdbGet('sdb://osenv', ctx)).toBe('sdb://osenv');
    expect(await sdbGet('sdb://osenv/', ctx)).toBe('sdb://osenv/');
    expect(await sdbGet('sdb://nosuch/key', ctx)).toBe('sdb://nosuch/key');
    expect(await sdbGet('sdb://nodriver/foo', ctx)).toBe('sdb://nodriver/foo');
  });

  it("raises Salt's invocation errors with strict=True", async () => {
    const strict = (uri: unknown) => sdbGet(uri, ctx, true);
    await expect(strict('plainvalue')).rejects.toMatchObject({
      code: 'SALT_ERR_INVOCATION',
      message: 'SDB uri must start with "sdb://"',
    });
    await expect(strict('sdb://osenv/')).rejects.toMatchObject({
      message: 'SDB uri must have a profile name as a first part of the uri before the /',
    });
    await expect(strict('sdb://nodriver/foo')).rejects.toMatchObject({
      message: 'SDB profile "nodriver" wasnt found in the minion configuration',
    });
  });

  it('env: reads the environment; set keeps an existing value (setdefault); no delete', async () => {
    expect(await sdbGet('sdb://osenv/TSALT_SDB_TEST', ctx)).toBe('hello');
    expect(await sdbGet('sdb://osenv/TSALT_SDB_UNSET', ctx)).toBeNull();
    expect(await sdbSet('sdb://osenv/TSALT_SDB_TEST', 'other', ctx)).toBe('hello');
    expect(await sdbSet('sdb://osenv/TSALT_SDB_NEW', 'bar', ctx)).toBe('bar');
    expect(process.env.TSALT_SDB_NEW).toBe('bar');
    await expect(sdbSet('sdb://osenv/TSALT_SDB_NUM', 5, ctx)).rejects.toMatchObject({
      code: 'SALT_ERR_INVOCATION',
      message: 'str expected, not int',
    });
    await expect(sdbDelete('sdb://osenv/TSALT_SDB_TEST', ctx)).rejects.toMatchObject({
      code: 'SALT_ERR_SDB_UNAVAILABLE',
      message: "'env.delete' is not available: the env sdb driver has no delete function",
    });
  });

  it('yaml: merges the files in order, walks keys and list items, skips a missing file', async () => {
    expect(await sdbGet('sdb://myyaml/app:db:pass', ctx)).toBe('s3cret-b');
    expect(await sdbGet('sdb://myyaml/app', ctx)).toEqual({
      db: { user: 'admin', pass: 's3cret-b' },
      hosts: ['h3'],
    });
    expect(await sdbGet('sdb://lists/app:hosts', ctx)).toEqual(['h1', 'h2', 'h3']);
    expect(await sdbGet('sdb://myyaml/list:1:name', ctx)).toBe('two');
    expect(await sdbGet('sdb://myyaml/list:name', ctx)).toBe('one');
    expect(await sdbGet('sdb://myyaml/missing:key', ctx)).toBeNull();
    expect(await sdbGet('sdb://myyaml/extra', ctx)).toBe(7);
    expect(log.lines.some((l) => l.includes(`File '${join(dir, 'missing.yaml')}' not found`))).toBe(true);
    await expect(sdbSet('sdb://myyaml/app', 'x', ctx)).rejects.toMatchObject({ code: 'SALT_ERR_SDB_VALUE' });
  });

  it('finds a profile in the pillar when the options have none', async () => {
    expect(await sdbGet('sdb://pprof/extra', ctx)).toBe(7);
  });

  it('sqlite3: stores msgpack blobs as Salt does, reads them back, keeps a hash once made', async () => {
    expect(await sdbSet('sdb://kv/k1', 'v1', ctx)).toBe(true);
    expect(await sdbGet('sdb://kv/k1', ctx)).toBe('v1');
    expect(await sdbSet('sdb://kv/k2', { a: [1, 2], b: true }, ctx)).toBe(true);
    expect(await sdbGet('sdb://kv/k2', ctx)).toEqual({ a: [1, 2], b: true });
    expect(await sdbGet('sdb://kv/nokey', ctx)).toBeNull();
    // the table Salt makes, the values Salt's msgpack writes: one database serves both
    const db = new Database(join(dir, 'sdb.sqlite'));
    const row = db.prepare('SELECT value FROM "sdb" WHERE key = ?').get('k1') as { value: Buffer };
    expect(unpackIpc(row.value)).toBe('v1');
    db.prepare('INSERT OR REPLACE INTO "sdb" VALUES (?, ?)').run('from_salt', packIpc(['x', 1]));
    db.close();
    expect(await sdbGet('sdb://kv/from_salt', ctx)).toEqual(['x', 1]);
    const made = await sdbGetOrSetHash('sdb://kv/pw', ctx, 12);
    expect(made).toMatch(/^[a-z0-9!@#$%^&*(\-_=+)]{12}$/);
    expect(await sdbGetOrSetHash('sdb://kv/pw', ctx, 12)).toBe(made);
    expect(await sdbGetOrSetHash('sdb://kv/k1', ctx)).toBe('v1');
    await expect(sdbGetOrSetHash('sdb://kv/pw3', ctx, 4, '')).rejects.toMatchObject({
      code: 'SALT_ERR_INVOCATION',
    });
    expect(await sdbGetOrSetHash('notsdb', ctx)).toBe(false);
    expect(await sdbGetOrSetHash('sdb://nosuch/x', ctx)).toBe('sdb://nosuch/x');
    await expect(sdbDelete('sdb://kv/k1', ctx)).rejects.toMatchObject({ code: 'SALT_ERR_SDB_UNAVAILABLE' });
  });

  it('set and delete answer false for a value that names no profile', async () => {
    expect(await sdbSet('sdb://nosuch/x', 'y', ctx)).toBe(false);
    expect(await sdbSet('notsdb', 'y', ctx)).toBe(false);
    expect(await sdbDelete('sdb://nosuch/x', ctx)).toBe(false);
    expect(await sdbDelete('notsdb', ctx)).toBe(false);
  });

  it('an unknown driver is a coded error, not a crash', async () => {
    await expect(sdbGet('sdb://badprof/key', ctx)).rejects.toMatchObject({
      code: 'SALT_ERR_SDB_UNAVAILABLE',
      message: "'nosuchdriver.get' is not available: no sdb driver is named 'nosuchdriver'",
    });
  });

  it('finds third-party drivers: an sdb_dirs file, an extension package, a plugin registration', async () => {
    expect(await sdbGet('sdb://local/abc', ctx)).toBe('memo:abc');
    expect(log.lines.some((l) => l.includes('broken.mjs') && l.includes('sdb file skipped'))).toBe(true);
    expect(await sdbGet('sdb://acme/k', ctx)).toBe('from-package');
    expect(await sdbSet('sdb://acme/k2', 'v', ctx)).toBe(true);
    expect(await sdbGet('sdb://acme/k2', ctx)).toBe('v');
    expect(await sdbDelete('sdb://acme/k2', ctx)).toBe(true);
    const registered = defineSdb({ name: 'local_memo', get: (key: string) => `plugin:${key}` });
    setProcessSdbKinds({ all: () => [registered] as never });
    expect(await sdbGet('sdb://local/abc', ctx)).toBe('plugin:abc');
    setProcessSdbKinds(undefined);
  });

  it('resolves sdb:// values in a config at any depth, once, deeply frozen (apply_sdb)', async () => {
    const config = Object.freeze({
      myyaml: opts.myyaml,
      extra: Object.freeze({
        password: 'sdb://myyaml/app:db:pass',
        nested: { inner: 'sdb://myyaml/app:db:user', lst: ['sdb://myyaml/extra', 'plain', null] },
        unknown: 'sdb://nosuch/x',
      }),
      timeout: 5,
    });
    const out = await applySdb(config, log);
    expect(out.extra).toEqual({
      password: 's3cret-b',
      nested: { inner: 'admin', lst: [7, 'plain', null] },
      unknown: 'sdb://nosuch/x',
    });
    expect(out.timeout).toBe(5);
    expect(Object.isFrozen(out.extra.nested)).toBe(true);
    const plain = Object.freeze({ timeout: 5 });
    expect(await applySdb(plain, log)).toBe(plain);
    expect(holdsSdbUri({ a: [{ b: 'sdb://x/y' }] })).toBe(true);
    expect(holdsSdbUri({ a: ['sdbx://x/y'] })).toBe(false);
  });

  it('never logs a value it read', () => {
    const all = log.lines.join('\n');
    for (const secret of ['s3cret-a', 's3cret-b', 'hello', 'from-package']) expect(all).not.toContain(secret);
  });
});
