/**
 * The `redis` sdb driver against a real Redis (Debian's redis-server, started privately on a
 * free loopback port). Values are Salt's redis_sdb's: raw strings under the plain key, so Salt
 * and tsalt share a database (Salt 3006.18 via salt-call --local: 14 of 17 identical, the 3 others
 * Salt crashes where tsalt answers SALT_ERR_SDB_VALUE).
 */
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UnitLogger } from '../../kernel/index.js';
import { SKIP_DB_TESTS, startRedis, type TestServer } from '../../tools/db-servers.js';
import type { SdbContext } from './define.js';
import { sdbDelete, sdbGet, sdbGetOrSetHash, sdbSet } from './sdb.js';

const quiet: UnitLogger = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };

describe.skipIf(SKIP_DB_TESTS)('the redis sdb driver (real server)', () => {
  let server: TestServer;
  let ctx: SdbContext;
  let raw: ReturnType<typeof createClient>;

  beforeAll(async () => {
    server = await startRedis();
    const at = { driver: 'redis', host: server.host, port: server.port, db: 3 };
    ctx = {
      log: quiet,
      opts: {
        rd: at,
        rdx: { ...at, decode_responses: true },
        unknown: { ...at, nosuchopt: 1 },
        down: { driver: 'redis', host: '127.0.0.1', port: 1, socket_connect_timeout: 2 },
      },
    };
    raw = createClient({ socket: { host: server.host, port: server.port }, database: 3 });
    await raw.connect();
  }, 60_000);
  afterAll(async () => {
    raw?.destroy();
    await server?.destroy();
  });

  it('sets and gets raw values under the plain key, bytes unless decode_responses', async () => {
    expect(await sdbSet('sdb://rd/app:pass', 'héllo', ctx)).toBe(true);
    expect(await raw.get('app:pass')).toBe('héllo');
    expect(await sdbGet('sdb://rd/app:pass', ctx)).toEqual(Buffer.from('héllo'));
    expect(await sdbGet('sdb://rdx/app:pass', ctx)).toBe('héllo');
    await raw.set('from-elsewhere', 'written by another client');
    expect(await sdbGet('sdb://rdx/from-elsewhere', ctx)).toBe('written by another client');
    expect(await sdbGet('sdb://rd/missing', ctx)).toBeNull();
  });

  it('stores numbers as redis-py does and refuses other types', async () => {
    expect(await sdbSet('sdb://rd/n', 42, ctx)).toBe(true);
    expect(await sdbSet('sdb://rd/f', 1.5, ctx)).toBe(true);
    expect([await raw.get('n'), await raw.get('f')]).toEqual(['42', '1.5']);
    for (const [value, type] of [
      [true, 'bool'],
      [[1, 2], 'list'],
      [{ a: 1 }, 'dict'],
    ] as const) {
      await expect(sdbSet('sdb://rd/bad', value, ctx)).rejects.toMatchObject({
        code: 'SALT_ERR_SDB_VALUE',
        message: `Invalid input of type: '${type}'. Convert to a bytes, string, int or float first.`,
      });
    }
    expect(await raw.exists('bad')).toBe(0);
  });

  it('delete answers how many keys it removed; get_or_set_hash stores once', async () => {
    await raw.set('gone', 'x');
    expect(await sdbDelete('sdb://rd/gone', ctx)).toBe(1);
    expect(await sdbDelete('sdb://rd/gone', ctx)).toBe(0);
    const made = await sdbGetOrSetHash('sdb://rdx/hash', ctx, 12);
    expect(String(made)).toHaveLength(12);
    expect(await sdbGetOrSetHash('sdb://rdx/hash', ctx, 12)).toBe(made);
  });

  it('refuses an unknown profile setting and names an unreachable server, without its values', async () => {
    await expect(sdbGet('sdb://unknown/k', ctx)).rejects.toMatchObject({
      code: 'SALT_ERR_SDB_VALUE',
      message: "redis sdb: the profile's 'nosuchopt' is not a Redis connection setting",
    });
    await expect(sdbGet('sdb://down/k', ctx)).rejects.toMatchObject({
      code: 'SALT_ERR_SDB_VALUE',
      message: expect.stringContaining('redis sdb: cannot connect to 127.0.0.1:1'),
    });
  });
});
