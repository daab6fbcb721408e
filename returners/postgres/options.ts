/**
 * Options of the `postgres` returner, named and defaulted as Salt's `pgjsonb`
 * (`returner.postgres.host` or `postgres.host`, ...), plus tsalt's connection and buffer knobs.
 */
import { z } from 'zod';

const optionalText = z.string().nullish();

export const postgresOptions = z
  .object({
    host: z
      .string()
      .default('localhost')
      .describe('Server host name, or a socket directory (starts with /).'),
    port: z.coerce.number().int().min(1).max(65535).default(5432),
    user: z.string().default('salt'),
    /** Salt's option name for the password. */
    pass: z.string().default('salt'),
    /** Alias of `pass`; wins when both are set. */
    passwd: optionalText,
    db: z.string().default('salt'),
    sslmode: z.enum(['disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full']).nullish(),
    sslcert: optionalText,
    sslkey: optionalText,
    sslrootcert: optionalText,
    sslcrl: optionalText,
    /** Seconds to wait for a connection before the store counts as down. */
    connect_timeout: z.coerce.number().positive().default(2.5),
    /** Most connections per master. */
    pool_size: z.coerce.number().int().min(1).max(100).default(4),
    /** Most writes kept in memory while the server is down (oldest dropped past it). */
    buffer_size: z.coerce.number().int().min(0).default(10_000),
    /** Seconds between attempts to write buffered writes while the server is down. */
    retry_interval: z.coerce.number().positive().default(5),
  })
  .transform((o) => ({ ...o, password: o.passwd ?? o.pass }));

export type PostgresOptions = z.output<typeof postgresOptions>;
