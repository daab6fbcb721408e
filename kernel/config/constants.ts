/**
 * Fixed names and Salt's system paths (`salt/syspaths.py` on Linux) that config resolution uses.
 */

/** The two daemon roles that read a config directory. */
export type ConfigKind = 'master' | 'minion';

/**
 * Files looked for in the `-c DIR` directory, first match wins. Modules come first, then data
 * files, then Salt's own extension-less YAML file.
 */
export function searchPlaces(kind: ConfigKind): readonly string[] {
  return [
    `${kind}.config.ts`,
    `${kind}.config.mjs`,
    `${kind}.config.js`,
    `${kind}.config.json`,
    `${kind}.config.yaml`,
    kind,
  ];
}

/** Salt's `ROOT_DIR`. */
export const SALT_ROOT_DIR = '/';
/** Salt's `CONFIG_DIR` (and `LIB_STATE_DIR`, which defaults to it). */
export const SALT_CONFIG_DIR = '/etc/salt';
/** Salt's `CACHE_DIR`. */
export const SALT_CACHE_DIR = '/var/cache/salt';
/** Salt's `SOCK_DIR`. */
export const SALT_SOCK_DIR = '/var/run/salt';
/** Salt's `LOGS_DIR`. */
export const SALT_LOGS_DIR = '/var/log/salt';
/** Salt's `PIDFILE_DIR`. */
export const SALT_PIDFILE_DIR = '/var/run';

/** Salt's logging defaults (`salt/_logging/impl.py`). */
export const SALT_LOG_DATEFMT = '%H:%M:%S';
export const SALT_LOG_DATEFMT_LOGFILE = '%Y-%m-%d %H:%M:%S';
export const SALT_LOG_FMT_CONSOLE = '[%(levelname)-8s] %(message)s';
export const SALT_LOG_FMT_LOGFILE =
  '%(asctime)s,%(msecs)03d [%(name)-17s:%(lineno)-4d][%(levelname)-8s][%(process)d] %(message)s';

/** Salt's log level names (`LOG_LEVELS`). */
export const LOG_LEVELS = [
  'all',
  'garbage',
  'trace',
  'debug',
  'profile',
  'info',
  'warning',
  'error',
  'critical',
  'quiet',
] as const;

/** Hash names Salt accepts for `hash_type` (hashlib's guaranteed set). */
export const HASH_TYPES = ['md5', 'sha1', 'sha224', 'sha256', 'sha384', 'sha512'] as const;

/** `salt.crypt.VALID_ENCRYPTION_ALGORITHMS` (3006). */
export const ENCRYPTION_ALGORITHMS = ['OAEP-SHA1', 'OAEP-SHA224'] as const;

/** `salt.crypt.VALID_SIGNING_ALGORITHMS` (3006). */
export const SIGNING_ALGORITHMS = ['PKCS1v15-SHA1', 'PKCS1v15-SHA224'] as const;
