/**
 * The single catalog of tsalt's error codes. Codes are never reused or renamed; each has an
 * entry in docs/errors.md. Plugins make their own codes with {@link createError} and their own prefix.
 */

/** Serializable form of an error, as it travels over the bus or into a job return. */
export interface SaltErrorJSON {
  code: string;
  message: string;
  details?: unknown;
}

/** Base class of every error the platform raises: a stable `code`, optional `details`, native `cause`. */
export class SaltError extends Error {
  readonly code: string;
  readonly details?: unknown;

  constructor(code: string, message: string, options?: { cause?: unknown; details?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.name = code;
    if (options?.details !== undefined) this.details = options.details;
  }

  toJSON(): SaltErrorJSON {
    return this.details === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, details: this.details };
  }
}

/** Options every generated error class accepts after its message arguments. */
export interface SaltErrorOptions {
  cause?: unknown;
  details?: unknown;
}

/** A class made by {@link createError}: `new X(...args, opts?)`, `instanceof X`, `X.code`. */
export interface SaltErrorClass<A extends unknown[]> {
  new (...args: [...A, SaltErrorOptions?]): SaltError;
  readonly code: string;
}

/**
 * Makes one error class for one code. The message is a typed function of the arguments.
 * @example
 * export const SALT_ERR_X = createError('SALT_ERR_X', (name: string) => `bad ${name}`);
 * throw new SALT_ERR_X('thing', { cause });
 */
export function createError<A extends unknown[]>(
  code: string,
  message: (...args: A) => string,
): SaltErrorClass<A> {
  const arity = message.length;
  const Cls = class extends SaltError {
    static readonly code = code;
    constructor(...args: [...A, SaltErrorOptions?]) {
      const opts = args.length > arity ? (args[arity] as SaltErrorOptions | undefined) : undefined;
      super(code, message(...(args.slice(0, arity) as A)), opts);
    }
  };
  Object.defineProperty(Cls, 'name', { value: code });
  return Cls as unknown as SaltErrorClass<A>;
}

// ── CONFIG ──────────────────────────────────────────────────────────────────────────────
export const SALT_ERR_CONFIG_LOAD = createError(
  'SALT_ERR_CONFIG_LOAD',
  (path: string) => `failed to load config from ${path}`,
);
export const SALT_ERR_CONFIG_INVALID = createError(
  'SALT_ERR_CONFIG_INVALID',
  (path: string, summary: string) => `invalid configuration in ${path}:\n${summary}`,
);

// ── PLUGIN ──────────────────────────────────────────────────────────────────────────────
export const SALT_ERR_PLUGIN_DUPLICATE = createError(
  'SALT_ERR_PLUGIN_DUPLICATE',
  (name: string) => `plugin "${name}" applied twice`,
);
export const SALT_ERR_PLUGIN_DEPENDENCY = createError(
  'SALT_ERR_PLUGIN_DEPENDENCY',
  (name: string, dep: string) => `plugin "${name}" needs plugin "${dep}" to be applied before it`,
);
export const SALT_ERR_PLUGIN_VERSION = createError(
  'SALT_ERR_PLUGIN_VERSION',
  (name: string, range: string, version: string) =>
    `plugin "${name}" supports kernel ${range}, this kernel is ${version}`,
);
export const SALT_ERR_PLUGIN_OPTIONS = createError(
  'SALT_ERR_PLUGIN_OPTIONS',
  (name: string, summary: string) => `invalid options for plugin "${name}": ${summary}`,
);
export const SALT_ERR_RETURNER_OPTIONS = createError(
  'SALT_ERR_RETURNER_OPTIONS',
  (name: string, summary: string) => `invalid options for returner "${name}": ${summary}`,
);
export const SALT_ERR_RETURNER_UNAVAILABLE = createError(
  'SALT_ERR_RETURNER_UNAVAILABLE',
  (name: string, reason: string) => `returner "${name}" is not available: ${reason}`,
);
export const SALT_ERR_RETURNER_FAILED = createError(
  'SALT_ERR_RETURNER_FAILED',
  (name: string, method: string, reason: string) => `returner "${name}" failed in ${method}: ${reason}`,
);
export const SALT_ERR_REGISTRY_DUPLICATE = createError(
  'SALT_ERR_REGISTRY_DUPLICATE',
  (kind: string, name: string) => `${kind} "${name}" is already registered`,
);
export const SALT_ERR_COMMAND_INVALID = createError(
  'SALT_ERR_COMMAND_INVALID',
  (cmd: string, why: string) => `request command "${cmd}" cannot be registered: ${why}`,
);
export const SALT_ERR_REGISTRY_DAEMON = createError(
  'SALT_ERR_REGISTRY_DAEMON',
  (kind: string, name: string, daemon: string) =>
    `cannot register ${kind} "${name}" in a ${daemon}: only the master runs them`,
);
export const SALT_ERR_REGISTRY_CLOSED = createError(
  'SALT_ERR_REGISTRY_CLOSED',
  (kind: string, name: string) => `cannot register ${kind} "${name}" after the daemon is ready`,
);

// ── HOOK ────────────────────────────────────────────────────────────────────────────────
export const SALT_ERR_HOOK_FAILED = createError(
  'SALT_ERR_HOOK_FAILED',
  (hook: string, plugin: string, message: string) =>
    `hook "${hook}" failed in plugin "${plugin}": ${message}`,
);

// ── LOADER ──────────────────────────────────────────────────────────────────────────────
export const SALT_ERR_LOADER_NOT_AVAILABLE = createError(
  'SALT_ERR_LOADER_NOT_AVAILABLE',
  (fun: string, reason: string) => `'${fun}' is not available.${reason ? ` ${reason}` : ''}`,
);
export const SALT_ERR_LOADER_INVALID_UNIT = createError(
  'SALT_ERR_LOADER_INVALID_UNIT',
  (path: string, why: string) => `${path} is not a valid unit: ${why}`,
);

// ── BUS ─────────────────────────────────────────────────────────────────────────────────
export const SALT_ERR_BUS_DECODE = createError(
  'SALT_ERR_BUS_DECODE',
  (what: string) => `could not decode ${what}`,
);
export const SALT_ERR_BUS_ENCODE = createError(
  'SALT_ERR_BUS_ENCODE',
  (what: string) => `could not encode ${what}`,
);
export const SALT_ERR_BUS_BAD_LOAD = createError(
  'SALT_ERR_BUS_BAD_LOAD',
  (why: string) => `bad load: ${why}`,
);
export const SALT_ERR_BUS_TIMEOUT = createError(
  'SALT_ERR_BUS_TIMEOUT',
  (what: string, ms: number) => `${what} timed out after ${ms} ms`,
);
export const SALT_ERR_BUS_ADDRESS = createError(
  'SALT_ERR_BUS_ADDRESS',
  (address: string) => `${address} is not a tcp://host:port (or, where allowed, ipc://path) address`,
);
export const SALT_ERR_BUS_ZMTP = createError(
  'SALT_ERR_BUS_ZMTP',
  (why: string) => `ZMTP peer broke the protocol: ${why}`,
);
export const SALT_ERR_REQUEST_TOO_LARGE = createError(
  'SALT_ERR_REQUEST_TOO_LARGE',
  (what: string) => `the master refused ${what}: it is larger than the master's max_request_size`,
);
/** The request server's answer for a request over `max_request_size` (`bad load`, as Salt refuses). */
export const REQUEST_TOO_LARGE_REPLY = 'bad load: request larger than max_request_size';
export const SALT_ERR_BUS_ADDRESS_IN_USE = createError(
  'SALT_ERR_BUS_ADDRESS_IN_USE',
  (address: string) => `cannot bind ${address}: address already in use`,
);

// ── CRYPT ───────────────────────────────────────────────────────────────────────────────
export const SALT_ERR_CRYPT_AUTH_FAILED = createError(
  'SALT_ERR_CRYPT_AUTH_FAILED',
  () => 'message authentication failed',
);
export const SALT_ERR_CRYPT_NONCE = createError('SALT_ERR_CRYPT_NONCE', () => 'nonce verification error');
export const SALT_ERR_CRYPT_KEY = createError(
  'SALT_ERR_CRYPT_KEY',
  (what: string) => `unusable key: ${what}`,
);
export const SALT_ERR_CRYPT_ALGO = createError(
  'SALT_ERR_CRYPT_ALGO',
  (algo: string) => `unsupported algorithm ${algo}`,
);
export const SALT_ERR_CRYPT_DECRYPT = createError(
  'SALT_ERR_CRYPT_DECRYPT',
  (what: string) => `could not decrypt ${what}`,
);

// ── AUTH ────────────────────────────────────────────────────────────────────────────────
export const SALT_ERR_AUTH_BAD_ID = createError(
  'SALT_ERR_AUTH_BAD_ID',
  (id: string) => `invalid minion id ${JSON.stringify(id)}`,
);
export const SALT_ERR_AUTH_REJECTED = createError(
  'SALT_ERR_AUTH_REJECTED',
  (id: string) => `the master rejected the key of minion ${id}`,
);
export const SALT_ERR_AUTH_MASTER_KEY = createError(
  'SALT_ERR_AUTH_MASTER_KEY',
  (why: string) => `master key verification failed: ${why}`,
);
export const SALT_ERR_AUTH_DENIED = createError(
  'SALT_ERR_AUTH_DENIED',
  (why: string) => `authentication denied: ${why}`,
);
export const SALT_ERR_AUTH_PENDING = createError(
  'SALT_ERR_AUTH_PENDING',
  () => 'Minion failed to authenticate with the master, has the minion key been accepted?',
);
export const SALT_ERR_AUTH_UNREACHABLE = createError(
  'SALT_ERR_AUTH_UNREACHABLE',
  (master: string, why: string) => `Attempt to authenticate with the salt master failed: ${master}: ${why}`,
);

// ── PROCESS ─────────────────────────────────────────────────────────────────────────────
export const SALT_ERR_PROCESS_DIR = createError(
  'SALT_ERR_PROCESS_DIR',
  (path: string, why: string) => `directory ${path} is unusable: ${why}`,
);
export const SALT_ERR_PROCESS_RUNNING = createError(
  'SALT_ERR_PROCESS_RUNNING',
  (pid: number, pidfile: string) => `another daemon is running with pid ${pid} (pidfile ${pidfile})`,
);
export const SALT_ERR_PROCESS_CHILD_START = createError(
  'SALT_ERR_PROCESS_CHILD_START',
  (name: string, why: string) => `process "${name}" failed to start: ${why}`,
);
export const SALT_ERR_PROCESS_DUPLICATE = createError(
  'SALT_ERR_PROCESS_DUPLICATE',
  (name: string) => `a process named "${name}" is already managed`,
);
export const SALT_ERR_PROCESS_UNKNOWN = createError(
  'SALT_ERR_PROCESS_UNKNOWN',
  (name: string) => `no managed process is named "${name}"`,
);
export const SALT_ERR_PROCESS_STOPPED = createError(
  'SALT_ERR_PROCESS_STOPPED',
  () => 'the process manager has been stopped',
);
export const SALT_ERR_PROCESS_PORT = createError(
  'SALT_ERR_PROCESS_PORT',
  (address: string, why: string) => `cannot bind ${address}: ${why}`,
);
export const SALT_ERR_PROCESS_DAEMONIZE = createError(
  'SALT_ERR_PROCESS_DAEMONIZE',
  (why: string) => `could not start the daemon in the background: ${why}`,
);
export const SALT_ERR_PROCESS_MASTER_ONLY = createError(
  'SALT_ERR_PROCESS_MASTER_ONLY',
  (what: string) => `${what} is available on the master only`,
);

// ── EXEC ────────────────────────────────────────────────────────────────────────────────
export const SALT_ERR_INVOCATION = createError('SALT_ERR_INVOCATION', (message: string) => message);
export const SALT_ERR_EXEC_COMMAND = createError('SALT_ERR_EXEC_COMMAND', (message: string) => message);
export const SALT_ERR_EXEC_TIMEOUT = createError(
  'SALT_ERR_EXEC_TIMEOUT',
  (fun: string, seconds: number) => `${fun} timed out after ${seconds} s`,
);
export const SALT_ERR_EXEC_CRASHED = createError(
  'SALT_ERR_EXEC_CRASHED',
  (fun: string, why: string) => `the process running ${fun} died: ${why}`,
);
export const SALT_ERR_EXEC_INTERNAL = createError(
  'SALT_ERR_EXEC_INTERNAL',
  (fun: string) => `an unexpected error occurred in ${fun}; see the minion log`,
);
/** Syncing extension modules from the master failed: no master connection, or a file that would not download. */
export const SALT_ERR_EXEC_SYNC = createError('SALT_ERR_EXEC_SYNC', (message: string) => message);
/** A function was given a value of the wrong shape (Salt raises SaltException). */
export const SALT_ERR_EXEC_VALUE = createError('SALT_ERR_EXEC_VALUE', (message: string) => message);

// ── JOB ─────────────────────────────────────────────────────────────────────────────────
export const SALT_ERR_JOB_DUPLICATE_RETURN = createError(
  'SALT_ERR_JOB_DUPLICATE_RETURN',
  (id: string, jid: string) =>
    `an extra return was detected from minion ${id} for job ${jid}: possible replay`,
);

// ── RUNNER ──────────────────────────────────────────────────────────────────────────────
/** A runner or wheel function failed as expected (unknown function, bad jid, nothing found). */
export const SALT_ERR_RUNNER = createError('SALT_ERR_RUNNER', (message: string) => message);

// ── TARGET ──────────────────────────────────────────────────────────────────────────────
/** A target expression that cannot be evaluated (bad compound grammar, prefix, regex, CIDR, nodegroup). */
export const SALT_ERR_TARGET_INVALID = createError('SALT_ERR_TARGET_INVALID', (message: string) => message);
