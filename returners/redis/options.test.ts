import { describe, expect, it } from 'vitest';
import { returnerContext } from '../../kernel/jobs/returner-options.js';
import { silentLogger } from '../../kernel/log.js';
import redis from './index.js';
import { redisOptions } from './options.js';

describe('redis options', () => {
  it("defaults as Salt's redis_return", () => {
    expect(redisOptions.parse({})).toMatchObject({
      host: 'salt',
      port: 6379,
      db: 0,
      password: '',
      cluster_mode: false,
    });
  });

  it("reads Salt's keys (db as a string) and says cluster mode is not supported yet", async () => {
    const ctx = returnerContext(
      redis,
      { 'redis.host': 'cache', 'redis.db': '3', 'redis.unix_socket_path': '/run/redis.sock' },
      silentLogger(),
    );
    expect(ctx.options).toMatchObject({ host: 'cache', db: 3, unix_socket_path: '/run/redis.sock' });
    expect(redisOptions.parse({ cluster_mode: 'False' }).cluster_mode).toBe(false);
    const cluster = returnerContext(redis, { 'redis.cluster_mode': true }, silentLogger());
    expect(await redis.virtual?.(cluster)).toEqual({
      ok: false,
      reason: expect.stringContaining('not supported yet'),
    });
  });
});
