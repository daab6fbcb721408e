/**
 * The `redis` sdb driver (Salt's `salt/sdb/redis_sdb.py`): one key of a Redis database, through
 * the `redis` client tsalt's redis returner already uses. Every option of the profile but
 * `driver` is a connection setting, named as Salt passes them to redis-py's `StrictRedis`:
 * `host` (localhost), `port` (6379), `db` (0), `username`, `password`, `unix_socket_path`,
 * `ssl`, `socket_connect_timeout` and `socket_timeout` (seconds) and `decode_responses`; any other
 * is refused, as redis-py refuses it. As in Salt, `get` answers the stored bytes (a string with
 * `decode_responses: true`) or `null`, `set` stores a string or a number and answers true, and
 * `delete` answers how many keys it removed. One connection per call, closed after it.
 */
import { pyStr } from '../../../kernel/util.js';
import { defineSdb, type SdbProfile } from '../define.js';
import { SALT_ERR_SDB_VALUE } from '../errors.js';

const SETTINGS = new Set([
  'driver',
  'host',
  'port',
  'db',
  'username',
  'password',
  'unix_socket_path',
  'ssl',
  'socket_connect_timeout',
  'socket_timeout',
  'decode_responses',
]);

const text = (v: unknown): string | undefined => (v === undefined || v === null ? undefined : String(v));
const seconds = (v: unknown): number | undefined =>
  typeof v === 'number' ? Math.round(v * 1000) : undefined;

async function connect(profile: SdbProfile) {
  for (const key of Object.keys(profile))
    if (!SETTINGS.has(key))
      throw new SALT_ERR_SDB_VALUE(`redis sdb: the profile's '${key}' is not a Redis connection setting`);
  const { createClient, RESP_TYPES } = await import('redis');
  const connectTimeout = seconds(profile.socket_connect_timeout ?? profile.socket_timeout);
  const socketTimeout = seconds(profile.socket_timeout);
  const common = { connectTimeout, socketTimeout, reconnectStrategy: false as const };
  const client = createClient({
    socket:
      typeof profile.unix_socket_path === 'string'
        ? { path: profile.unix_socket_path, ...common }
        : {
            host: text(profile.host) ?? 'localhost',
            port: Number(profile.port ?? 6379),
            ...(profile.ssl === true ? { tls: true as const } : {}),
            ...common,
          },
    username: text(profile.username),
    password: text(profile.password),
    database: Number(profile.db ?? 0),
  });
  // the error is thrown by connect() or the command; this listener keeps it from crashing the process
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (err) {
    client.destroy();
    const where =
      profile.unix_socket_path ?? `${text(profile.host) ?? 'localhost'}:${text(profile.port) ?? 6379}`;
    throw new SALT_ERR_SDB_VALUE(`redis sdb: cannot connect to ${where}: ${(err as Error).message}`);
  }
  return profile.decode_responses === true
    ? client
    : client.withTypeMapping({ [RESP_TYPES.BLOB_STRING]: Buffer });
}

/** redis-py's encoder: strings, bytes and numbers are stored, anything else refused. */
function encode(value: unknown): string | Buffer {
  if (typeof value === 'string') return value;
  if (value instanceof Uint8Array) return Buffer.from(value);
  if (typeof value === 'number' || typeof value === 'bigint') return pyStr(value);
  const type =
    value === null
      ? 'NoneType'
      : Array.isArray(value)
        ? 'list'
        : typeof value === 'boolean'
          ? 'bool'
          : 'dict';
  throw new SALT_ERR_SDB_VALUE(
    `Invalid input of type: '${type}'. Convert to a bytes, string, int or float first.`,
  );
}

async function withClient<T>(
  profile: SdbProfile,
  fn: (c: Awaited<ReturnType<typeof connect>>) => Promise<T>,
): Promise<T> {
  const client = await connect(profile);
  try {
    return await fn(client);
  } finally {
    client.destroy();
  }
}

export default defineSdb({
  name: 'redis',
  doc: 'Values in a Redis database, one key each.',
  get: (key, profile) => withClient(profile, async (c) => (await c.get(key)) ?? null),
  set(key, value, profile) {
    const data = encode(value);
    return withClient(profile, async (c) => (await c.set(key, data)) === 'OK');
  },
  delete: (key, profile) => withClient(profile, (c) => c.del(key)),
});
