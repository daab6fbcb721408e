/**
 * How Salt's `mysql` module reaches a server (`_connect` and `_execute`): connection settings
 * from the `connection_*` keywords, else the `mysql.*` options (none of them when a call names
 * its own `connection_default_file`, the charset aside), an option file's `[client]` group under
 * them, then one connection per call through the `mysql2` driver, loaded on first use only.
 * A failed connection is Salt's `None`: the error (`MySQL Error <n>: <text>`) goes to the job's
 * context and the log; the password never does.
 */
import { readFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import type { ExecContext } from '../kernel/index.js';
import { setMysqlError } from './_mysql-context.js';
import { type MysqlOptionName, mysqlOption } from './_mysql-options.js';
import { formatQuery } from './_mysql-sql.js';

/** The connection keywords every function of the module accepts. */
export interface MysqlConnArgs {
  connection_host?: unknown;
  connection_user?: unknown;
  connection_pass?: unknown;
  connection_port?: unknown;
  connection_db?: unknown;
  connection_unix_socket?: unknown;
  connection_default_file?: unknown;
  connection_default_group?: unknown;
  connection_charset?: unknown;
  client_flags?: unknown;
}

/** The keyword names of {@link MysqlConnArgs}, for argument schemas. */
export const CONN_KEYS = [
  'connection_host',
  'connection_user',
  'connection_pass',
  'connection_port',
  'connection_db',
  'connection_unix_socket',
  'connection_default_file',
  'connection_default_group',
  'connection_charset',
  'client_flags',
] as const;

/** A statement's outcome: rows (as arrays) and column names when it returned a result set. */
export interface MysqlResult {
  /** Salt's `cur.execute(...)` value: rows returned, or rows affected. */
  count: number;
  columns: string[] | null;
  rows: unknown[][];
}

/** A server error as PyMySQL classifies it (Salt catches OperationalError only, in most places). */
export class MysqlServerError extends Error {
  constructor(
    readonly errno: number,
    readonly sqlMessage: string,
    readonly kind: string,
  ) {
    super(`(${errno}, ${JSON.stringify(sqlMessage)})`);
    this.name = kind;
  }
  /** `MySQL Error <n>: <text>`, Salt's form. */
  get saltText(): string {
    return `MySQL Error ${this.errno}: ${this.sqlMessage}`;
  }
}

const KINDS: ReadonlyArray<[string, readonly number[]]> = [
  ['ProgrammingError', [1007, 1149, 1064, 1146, 1102, 1103, 1110, 1111, 1112, 1113, 1179, 1166]],
  ['DataError', [1265, 1263, 1264, 1230, 1171, 1406, 1441, 1366, 1367]],
  ['IntegrityError', [1062, 1216, 1452, 1217, 1451, 1215, 1048]],
  ['NotSupportedError', [1196, 1235, 1289, 1286]],
];

function kindOf(errno: number): string {
  for (const [kind, codes] of KINDS) if (codes.includes(errno)) return kind;
  return errno < 1000 ? 'InternalError' : 'OperationalError';
}

/** An open connection: runs statements (PyMySQL's pyformat placeholders), then closes. */
export interface MysqlSession {
  run(qry: string, args?: Readonly<Record<string, unknown>>): Promise<MysqlResult>;
  close(): Promise<void>;
}

/** Values as strings (`mysql.query`, whose converters Salt sets to `str`) or typed as PyMySQL types them. */
export type CastMode = 'strings' | 'typed';

interface Driver {
  createConnection(config: Record<string, unknown>): Promise<DriverConnection>;
}
interface DriverField {
  type: string;
  name: string;
  string(): string | null;
}
interface DriverConnection {
  query(opts: {
    sql: string;
    rowsAsArray: boolean;
    typeCast: (field: DriverField, next: () => unknown) => unknown;
  }): Promise<[unknown, Array<{ name: string }> | undefined]>;
  end(): Promise<void>;
  destroy(): void;
}

let driver: Promise<Driver> | undefined;
/** The mysql2 driver, imported the first time a mysql function connects. */
function loadDriver(): Promise<Driver> {
  driver ??= import('mysql2/promise').then((m) => (m.default ?? m) as unknown as Driver);
  return driver;
}

const INTS = new Set(['TINY', 'SHORT', 'LONG', 'LONGLONG', 'INT24', 'YEAR']);

function castTyped(field: DriverField): unknown {
  const s = field.string();
  if (s === null) return null;
  if (INTS.has(field.type)) {
    const n = Number(s);
    return Number.isSafeInteger(n) ? n : s;
  }
  if (field.type === 'FLOAT' || field.type === 'DOUBLE') return Number(s);
  if (field.type === 'DECIMAL' || field.type === 'NEWDECIMAL') return `Decimal('${s}')`;
  return s;
}

const text = (v: unknown): string | null =>
  v === null || v === undefined || v === '' || v === false || v === 0 ? null : String(v);

/** The `[client]` (and `group`) settings of a MySQL option file; {} when it cannot be read. */
export function readOptionFile(path: string, group: string | null): Record<string, string> {
  let body: string;
  try {
    body = readFileSync(path, 'utf8');
  } catch {
    return {};
  }
  const out: Record<string, string> = {};
  const wanted = new Set(['client', ...(group ? [group] : [])]);
  let current = '';
  for (const raw of body.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const head = /^\[(.+)\]$/.exec(line);
    if (head) {
      current = (head[1] ?? '').trim();
      continue;
    }
    if (!wanted.has(current)) continue;
    const eq = line.indexOf('=');
    const key = (eq < 0 ? line : line.slice(0, eq)).trim().replace(/_/g, '-');
    let value = eq < 0 ? '' : line.slice(eq + 1).trim();
    if (/^(['"]).*\1$/.test(value)) value = value.slice(1, -1);
    out[key] = value;
  }
  return out;
}

/** The driver's settings for `args`, as Salt's `_connect` gathers them. */
export async function connectionConfig(
  ctx: ExecContext,
  args: MysqlConnArgs,
): Promise<Record<string, unknown>> {
  const a = args as Record<string, unknown>;
  const getOpts = !('connection_default_file' in a);
  const pick = async (key: MysqlOptionName, always = false): Promise<string | null> => {
    const kw = `connection_${key}`;
    if (kw in a) return text(a[kw]);
    if (!getOpts && !always) return null;
    return text(await mysqlOption(ctx, key));
  };
  const host = await pick('host');
  const user = await pick('user');
  const pass = await pick('pass');
  const port = await pick('port');
  const db = await pick('db');
  const socket = await pick('unix_socket');
  const defaultFile = await pick('default_file');
  const group = text(a.connection_default_group);
  const charset = await pick('charset', true);
  const file = defaultFile ? readOptionFile(defaultFile, group) : {};
  const flags = Array.isArray(a.client_flags) ? a.client_flags.map(String) : [];
  for (const flag of flags)
    if (flag !== 'multi_statements' && flag !== 'multi_results' && flag !== 'found_rows')
      ctx.log.error(`MySQL client flag ${flag} not valid, ignoring.`);
  const cfg: Record<string, unknown> = {
    host: host ?? file.host ?? 'localhost',
    user: user ?? file.user ?? userInfo().username,
    port: Number(port ?? file.port ?? 3306),
    connectTimeout: 10_000,
    rowsAsArray: true,
    multipleStatements: flags.includes('multi_statements'),
  };
  const password = pass ?? file.password ?? file.pass ?? null;
  if (password !== null) cfg.password = password;
  const database = db ?? file.database ?? null;
  if (database !== null) cfg.database = database;
  const sock = socket ?? file.socket ?? null;
  if (sock !== null) cfg.socketPath = sock;
  const cs = charset ?? file['default-character-set'] ?? null;
  if (cs !== null) cfg.charset = cs;
  return cfg;
}

const ERRNO: Record<string, [number, string]> = {
  ECONNREFUSED: [111, 'Connection refused'],
  ENOENT: [2, 'No such file or directory'],
  EACCES: [13, 'Permission denied'],
  EHOSTUNREACH: [113, 'No route to host'],
  ENOTFOUND: [-2, 'Name or service not known'],
  EAI_AGAIN: [-3, 'Temporary failure in name resolution'],
};

/** A driver error as PyMySQL would raise it. */
export function serverError(err: unknown, host: string): MysqlServerError {
  const e = err as { errno?: number; sqlMessage?: string; code?: string; message?: string };
  if (typeof e.sqlMessage === 'string' && typeof e.errno === 'number')
    return new MysqlServerError(e.errno, e.sqlMessage, kindOf(e.errno));
  const sys = e.code ? ERRNO[e.code] : undefined;
  const why = sys
    ? `[Errno ${sys[0]}] ${sys[1]}`
    : e.code === 'ETIMEDOUT'
      ? 'timed out'
      : (e.message ?? String(err));
  return new MysqlServerError(
    2003,
    `Can't connect to MySQL server on '${host}' (${why})`,
    'OperationalError',
  );
}

/**
 * Salt's `_connect`: a session, or null after recording `MySQL Error <n>: <text>` in the job's
 * context and the log. `db` overrides the connection's database (`mysql.query`).
 */
export async function mysqlConnect(
  ctx: ExecContext,
  args: MysqlConnArgs,
  opts: { db?: string; cast?: CastMode } = {},
): Promise<MysqlSession | null> {
  const cfg = await connectionConfig(ctx, opts.db === undefined ? args : { ...args, connection_db: opts.db });
  const cast = opts.cast ?? 'typed';
  const where = String(cfg.socketPath ? 'localhost' : cfg.host);
  const mysql = await loadDriver();
  let conn: DriverConnection;
  try {
    conn = await mysql.createConnection(cfg);
  } catch (err) {
    const e = serverError(err, where);
    setMysqlError(ctx, e.saltText);
    ctx.log.error(e.saltText);
    return null;
  }
  const onAbort = () => conn.destroy();
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  return {
    async run(qry, qargs = {}) {
      const sql = formatQuery(qry, qargs);
      ctx.log.debug(`Doing query: ${qry}`);
      try {
        const [rows, fields] = await conn.query({
          sql,
          rowsAsArray: true,
          typeCast: (field) => (cast === 'strings' ? field.string() : castTyped(field)),
        });
        if (Array.isArray(rows) && fields)
          return { count: rows.length, columns: fields.map((f) => f.name), rows: rows as unknown[][] };
        const header = rows as { affectedRows?: number };
        return { count: header.affectedRows ?? 0, columns: null, rows: [] };
      } catch (err) {
        throw serverError(err, where);
      }
    },
    async close() {
      ctx.signal.removeEventListener('abort', onAbort);
      await conn.end().catch(() => conn.destroy());
    },
  };
}

/**
 * Runs `fn` over a fresh session; `onFail` when the connection fails. The session is closed after.
 */
export async function withSession<T>(
  ctx: ExecContext,
  args: MysqlConnArgs,
  onFail: T,
  fn: (s: MysqlSession) => Promise<T>,
  opts: { db?: string; cast?: CastMode } = {},
): Promise<T> {
  const s = await mysqlConnect(ctx, args, opts);
  if (!s) return onFail;
  try {
    return await fn(s);
  } finally {
    await s.close();
  }
}

/**
 * Salt's `try: _execute(...) except OperationalError`: runs the statement; an OperationalError
 * (or one of `kinds`) is recorded and logged and gives `onError`; anything else propagates.
 */
export async function tryRun<T>(
  ctx: ExecContext,
  s: MysqlSession,
  qry: string,
  qargs: Readonly<Record<string, unknown>>,
  onError: T,
  then: (r: MysqlResult) => T | Promise<T>,
  kinds: readonly string[] = ['OperationalError'],
): Promise<T> {
  let r: MysqlResult;
  try {
    r = await s.run(qry, qargs);
  } catch (err) {
    if (err instanceof MysqlServerError && kinds.includes(err.kind)) {
      setMysqlError(ctx, err.saltText);
      ctx.log.error(err.saltText);
      return onError;
    }
    throw err;
  }
  return then(r);
}
