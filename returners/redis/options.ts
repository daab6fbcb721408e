/**
 * Options of the `redis` returner, named and defaulted as Salt's `redis_return`
 * (`redis.host`, `redis.port`, `redis.db`, `redis.password`, `redis.unix_socket_path`,
 * `redis.cluster_mode`), plus tsalt's connection and buffer knobs.
 */
import { z } from 'zod';

/** A yes/no option: a boolean, or Salt-style text ('True', 'false', 'yes', '0'). */
const flag = z.preprocess(
  (v) => (typeof v === 'string' ? /^(1|true|yes|on)$/i.test(v.trim()) : v),
  z.boolean(),
);

export const redisOptions = z.object({
  host: z.string().default('salt'),
  port: z.coerce.number().int().min(1).max(65535).default(6379),
  /** Salt documents it as a string ('0'). */
  db: z.coerce.number().int().min(0).default(0),
  password: z.string().nullish().default(''),
  /** When set, connects to this UNIX socket instead of host and port. */
  unix_socket_path: z.string().nullish(),
  /** Redis Cluster: not supported yet (the returner says so instead of loading). */
  cluster_mode: flag.default(false),
  'cluster.startup_nodes': z.array(z.object({ host: z.string(), port: z.coerce.number() })).optional(),
  'cluster.skip_full_coverage_check': flag.default(false),
  /** Seconds to wait for the first connection before the store counts as down. */
  connect_timeout: z.coerce.number().positive().default(2.5),
  /** Most writes kept in memory while the server is down (oldest dropped past it). */
  buffer_size: z.coerce.number().int().min(0).default(10_000),
  /** Seconds between attempts to write buffered writes while the server is down. */
  retry_interval: z.coerce.number().positive().default(5),
  /** Most events kept in the `salt:events` stream (`event_return`). */
  events_max: z.coerce.number().int().min(1).default(100_000),
});

export type RedisOptions = z.output<typeof redisOptions>;
