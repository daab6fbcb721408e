/**
 * Building blocks of the master and minion schemas: one helper per option shape, each
 * registering the option's documentation and how Salt-style YAML values are coerced into it,
 * plus the options both daemons share (paths, logging, transport, extensions).
 */
import { userInfo } from 'node:os';
import { z } from 'zod';
import {
  type ConfigKind,
  HASH_TYPES,
  LOG_LEVELS,
  SALT_CACHE_DIR,
  SALT_CONFIG_DIR,
  SALT_LOG_DATEFMT,
  SALT_LOG_DATEFMT_LOGFILE,
  SALT_LOG_FMT_CONSOLE,
  SALT_LOG_FMT_LOGFILE,
  SALT_LOGS_DIR,
  SALT_PIDFILE_DIR,
  SALT_ROOT_DIR,
  SALT_SOCK_DIR,
} from './constants.js';

/**
 * How a raw value is made to fit before validation, where Salt's YAML habits differ from
 * strict types: `number` turns numeric strings into numbers, `string` turns numbers into
 * strings, `lowercase` lowercases a string, `null-to-default` drops a `null` (a key whose
 * children are all commented out) so the default applies.
 */
export type Coercion = 'number' | 'string' | 'lowercase' | 'null-to-default';

/** Documentation and coercion of one option. */
export interface OptionMeta {
  /** One sentence: what the option does. */
  description: string;
  /** The type as written in docs/config.md. */
  type: string;
  /** The default as written in docs/config.md, when it is not a plain value. */
  default?: string;
  coerce?: Coercion;
}

/** Every option schema, with its docs and coercion. */
export const optionMeta = z.registry<OptionMeta>();

function option<T extends z.ZodType>(schema: T, meta: OptionMeta): T {
  optionMeta.add(schema, meta);
  return schema;
}

/** The least a kernel plugin is: a name and an `apply` function (the plugin API types it fully). */
export interface KernelPluginLike {
  name: string;
  apply(api: unknown): unknown;
}

function isPluginLike(value: unknown): value is KernelPluginLike {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as { name?: unknown; apply?: unknown };
  return typeof candidate.name === 'string' && typeof candidate.apply === 'function';
}

function rangeText(kind: 'an integer' | 'a number', min?: number, max?: number): string {
  if (min !== undefined && max !== undefined) return `expected ${kind} from ${min} to ${max}`;
  if (min !== undefined) return `expected ${kind} >= ${min}`;
  if (max !== undefined) return `expected ${kind} <= ${max}`;
  return `expected ${kind}`;
}

function typeText(kind: 'integer' | 'number', min?: number, max?: number): string {
  if (min !== undefined && max !== undefined) return `${kind} ${min}–${max}`;
  if (min !== undefined) return `${kind} ≥ ${min}`;
  return kind;
}

interface Range {
  min?: number;
  max?: number;
}

/** An integer option; numeric strings (`"4506"`) are accepted as Salt does. */
export function intOption(def: number, description: string, { min, max }: Range = {}) {
  const error = rangeText('an integer', min, max);
  let schema = z.int({ error });
  if (min !== undefined) schema = schema.min(min, { error });
  if (max !== undefined) schema = schema.max(max, { error });
  return option(schema.default(def), { description, type: typeText('integer', min, max), coerce: 'number' });
}

/** A TCP port, 1–65535. */
export function portOption(def: number, description: string) {
  return intOption(def, description, { min: 1, max: 65535 });
}

/** A number option (Salt's `float`); numeric strings are accepted. */
export function numberOption(def: number, description: string, { min, max }: Range = {}) {
  const error = rangeText('a number', min, max);
  let schema = z.number({ error });
  if (min !== undefined) schema = schema.min(min, { error });
  if (max !== undefined) schema = schema.max(max, { error });
  return option(schema.default(def), { description, type: typeText('number', min, max), coerce: 'number' });
}

/** A boolean option. YAML 1.1 `yes`/`no`/`on`/`off`/`True` arrive as booleans already. */
export function boolOption(def: boolean, description: string) {
  return option(z.boolean({ error: 'expected a boolean (true or false)' }).default(def), {
    description,
    type: 'boolean',
  });
}

/** A string option; numbers are accepted and turned into strings, as Salt's `str` check allows. */
export function stringOption(def: string, description: string) {
  return option(z.string({ error: 'expected a string' }).default(def), {
    description,
    type: 'string',
    coerce: 'string',
  });
}

/** A string option whose default is `null` (unset). */
export function nullableStringOption(description: string, type = 'string | null') {
  return option(z.string({ error: 'expected a string or null' }).nullable().default(null), {
    description,
    type,
    coerce: 'string',
  });
}

/** A filesystem path; `root_dir` is prepended to the path options Salt prefixes. */
export function pathOption(def: string, description: string) {
  return option(
    z.string({ error: 'expected a path' }).min(1, { error: 'expected a non-empty path' }).default(def),
    {
      description,
      type: 'path',
    },
  );
}

/** A path that is unset (`null`) by default. */
export function nullablePathOption(description: string, display?: string) {
  return option(
    z
      .string({ error: 'expected a path or null' })
      .min(1, { error: 'expected a non-empty path or null' })
      .nullable()
      .default(null),
    display === undefined
      ? { description, type: 'path | null' }
      : { description, type: 'path | null', default: display },
  );
}

/** One of a fixed set of strings. */
export function enumOption<const T extends readonly [string, ...string[]]>(
  values: T,
  def: T[number],
  description: string,
  coerce?: 'lowercase',
) {
  const list = values.map((v) => `'${v}'`).join(', ');
  const schema = z.enum(values, { error: `expected one of ${list}` }).default(def as never);
  const meta: OptionMeta = { description, type: values.map((v) => `\`${v}\``).join(' | ') };
  if (coerce !== undefined) meta.coerce = coerce;
  return option(schema, meta);
}

/** A list of strings; `null` (all entries commented out) means the default. */
export function stringListOption(description: string, type = 'list of strings') {
  return option(
    z
      .array(z.string({ error: 'expected a list of strings' }), { error: 'expected a list of strings' })
      .default([]),
    {
      description,
      type,
      coerce: 'null-to-default',
    },
  );
}

/** A string or a list of strings, resolved to a list (`""` → `[]`). */
export function stringOrListOption(description: string) {
  const schema = z
    .union([z.string(), z.array(z.string())], { error: 'expected a string or a list of strings' })
    .transform((value) => (typeof value === 'string' ? (value === '' ? [] : [value]) : value))
    .default([]);
  return option(schema, { description, type: 'string | list of strings', coerce: 'null-to-default' });
}

/** A mapping with free-form values; `null` means the default `{}`. */
export function mappingOption(description: string) {
  return option(z.record(z.string(), z.unknown(), { error: 'expected a mapping' }).default({}), {
    description,
    type: 'mapping',
    coerce: 'null-to-default',
  });
}

/** Any typed collection: validated by `schema`, `null` means `def`. */
export function collectionOption<T extends z.ZodType>(
  schema: T,
  def: z.output<T>,
  description: string,
  type: string,
) {
  return option(schema.default(def as never), { description, type, coerce: 'null-to-default' });
}

const NPM_NAME = /^(?:@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/;

/** Options both daemons share; defaults that differ by role come from `kind`. */
export function commonOptions(kind: ConfigKind) {
  const pidName = kind === 'master' ? 'salt-master.pid' : 'salt-minion.pid';
  return {
    user: option(
      z
        .string({ error: 'expected a user name' })
        .min(1, { error: 'expected a user name' })
        .default(currentUser),
      {
        description: 'The user the daemon runs as.',
        type: 'string',
        default: 'the user that starts the daemon',
        coerce: 'string',
      },
    ),
    root_dir: pathOption(
      SALT_ROOT_DIR,
      'Prepended to pki_dir, cachedir, sock_dir, extension_modules, pidfile, log_file and the other path options, as Salt does.',
    ),
    pki_dir: pathOption(
      `${SALT_CONFIG_DIR}/pki/${kind}`,
      'Where the key pairs (and, on the master, the minion keys) live.',
    ),
    cachedir: pathOption(`${SALT_CACHE_DIR}/${kind}`, 'The cache directory: job cache, proc files, extmods.'),
    sock_dir: pathOption(
      `${SALT_SOCK_DIR}/${kind}`,
      'Directory of the IPC sockets (event bus). Replaced by `<cachedir>/.salt-unix` when longer than cachedir + 10 characters, as Salt does.',
    ),
    pidfile: pathOption(`${SALT_PIDFILE_DIR}/${pidName}`, 'The pidfile of the daemon.'),
    log_file: pathOption(
      `${SALT_LOGS_DIR}/${kind}`,
      'The log file, or a URL such as `udp://host:514` (not prefixed with root_dir).',
    ),
    log_dir: nullablePathOption(
      'When set, a relative log_file (or the default file name) is placed in this directory.',
    ),
    log_level: enumOption(LOG_LEVELS, 'warning', 'Console log level.', 'lowercase'),
    log_level_logfile: option(
      z
        .enum(LOG_LEVELS, { error: `expected one of ${LOG_LEVELS.map((v) => `'${v}'`).join(', ')} or null` })
        .nullable()
        .default(null),
      {
        description: 'Log file level; `null` means log_level.',
        type: 'log level | null',
        coerce: 'lowercase',
      },
    ),
    log_fmt_console: stringOption(
      SALT_LOG_FMT_CONSOLE,
      'Console log format (Python logging syntax, as Salt).',
    ),
    log_fmt_logfile: stringOption(SALT_LOG_FMT_LOGFILE, 'Log file format (Python logging syntax, as Salt).'),
    log_datefmt: stringOption(SALT_LOG_DATEFMT, 'Console date format.'),
    log_datefmt_logfile: stringOption(SALT_LOG_DATEFMT_LOGFILE, 'Log file date format.'),
    log_granular_levels: collectionOption(
      z.record(z.string(), z.enum(LOG_LEVELS, { error: 'expected a log level' }), {
        error: 'expected a mapping of logger name to log level',
      }),
      {},
      'Per-logger levels, e.g. `{ "salt.transport": debug }`.',
      'mapping of logger → level',
    ),
    ipc_mode: enumOption(
      ['ipc', 'tcp'],
      'ipc',
      'Local IPC over unix sockets (`ipc`) or loopback TCP (`tcp`).',
    ),
    ipv6: option(z.boolean({ error: 'expected a boolean or null' }).nullable().default(null), {
      description: 'Bind/connect over IPv6; `null` lets the daemon decide from the address.',
      type: 'boolean | null',
    }),
    transport: enumOption(['zeromq'], 'zeromq', 'The transport; tsalt speaks ZeroMQ only.'),
    hash_type: enumOption(HASH_TYPES, 'sha256', 'Hash used for file and key fingerprints.', 'lowercase'),
    keysize: intOption(2048, 'RSA key size for generated keys.', { min: 2048 }),
    max_event_size: intOption(1048576, 'Events larger than this many bytes are trimmed.', { min: 1 }),
    unique_jid: boolOption(false, 'Append `_<pid>` to generated jids.'),
    tcp_keepalive: boolOption(true, 'Enable TCP keepalive on ZeroMQ sockets.'),
    tcp_keepalive_idle: numberOption(300, 'TCP keepalive idle seconds (-1: system default).'),
    tcp_keepalive_cnt: numberOption(-1, 'TCP keepalive probe count (-1: system default).'),
    tcp_keepalive_intvl: numberOption(-1, 'TCP keepalive interval seconds (-1: system default).'),
    zmq_filtering: boolOption(false, 'Publish with topic filtering so minions receive only their jobs.'),
    extension_modules: nullablePathOption('Directory of synced extension units.', '`<cachedir>/extmods`'),
    module_dirs: stringListOption(
      'Extra directories searched for units (resolved against the working directory).',
      'list of paths',
    ),
    extensions: collectionOption(
      z.array(z.string().regex(NPM_NAME, { error: 'expected an npm package name' }), {
        error: 'expected a list of npm package names',
      }),
      [],
      'npm packages that provide units (their package.json says what).',
      'list of package names',
    ),
    plugins: collectionOption(
      z.array(
        z.custom<KernelPluginLike>(isPluginLike, {
          error: 'expected a plugin: an object with a string `name` and an `apply` function',
        }),
        {
          error: 'expected a list of plugins',
        },
      ),
      [],
      'Kernel plugin objects, applied at start-up (TS/JS configs only).',
      'list of plugins',
    ),
    default_include: stringOption(
      `${kind}.d/*.conf`,
      'Glob of YAML files merged over the main file, relative to the config directory.',
    ),
    include: stringOrListOption('More YAML files or globs to merge, relative to the config directory.'),
    conf_file: pathOption(
      `${SALT_CONFIG_DIR}/${kind}`,
      'Set by the loader: the file the config was read from.',
    ),
    config_dir: pathOption(SALT_CONFIG_DIR, 'Set by the loader: the `-c` directory.'),
  };
}

function currentUser(): string {
  try {
    return userInfo().username;
  } catch {
    return process.env.USER ?? 'root';
  }
}
