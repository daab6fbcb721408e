/**
 * Salt's grant handling in the `mysql` module: the privilege names a grant may hold (pasted
 * into SQL, so checked), the GRANT statement a state asks for, and the tokenizer that reads
 * `SHOW GRANTS` lines back into user, host, database and privileges (Python's non-POSIX
 * `shlex` with `'` and `` ` `` as quotes, as Salt splits them).
 */
import { SALT_ERR_INVOCATION } from '../kernel/index.js';
import { SALT_ERR_MYSQL_IDENTIFIER } from './_mysql-errors.js';
import { quoteIdentifier, versionCmp } from './_mysql-sql.js';

/** The privileges Salt lets a grant name. */
export const GRANTS: ReadonlySet<string> = new Set([
  'ALL PRIVILEGES',
  'ALTER',
  'ALTER ROUTINE',
  'BACKUP_ADMIN',
  'BINLOG_ADMIN',
  'BINLOG ADMIN',
  'BINLOG MONITOR',
  'BINLOG REPLAY',
  'CONNECTION_ADMIN',
  'CONNECTION ADMIN',
  'CREATE',
  'CREATE ROLE',
  'CREATE ROUTINE',
  'CREATE TABLESPACE',
  'CREATE TEMPORARY TABLES',
  'CREATE USER',
  'CREATE VIEW',
  'DELETE',
  'DELETE HISTORY',
  'DROP',
  'DROP ROLE',
  'ENCRYPTION_KEY_ADMIN',
  'EVENT',
  'EXECUTE',
  'FEDERATED ADMIN',
  'FILE',
  'GRANT OPTION',
  'GROUP_REPLICATION_ADMIN',
  'INDEX',
  'INSERT',
  'LOCK TABLES',
  'PERSIST_RO_VARIABLES_ADMIN',
  'PROCESS',
  'READ_ONLY ADMIN',
  'REFERENCES',
  'RELOAD',
  'REPLICA MONITOR',
  'REPLICATION CLIENT',
  'REPLICATION MASTER ADMIN',
  'REPLICATION REPLICA',
  'REPLICATION SLAVE',
  'REPLICATION_SLAVE_ADMIN',
  'REPLICATION SLAVE ADMIN',
  'RESOURCE_GROUP_ADMIN',
  'RESOURCE_GROUP_USER',
  'ROLE_ADMIN',
  'SELECT',
  'SET USER',
  'SET_USER_ID',
  'SHOW DATABASES',
  'SHOW VIEW',
  'SHUTDOWN',
  'SLAVE MONITOR',
  'SUPER',
  'SYSTEM_VARIABLES_ADMIN',
  'TRIGGER',
  'UPDATE',
  'USAGE',
  'XA_RECOVER_ADMIN',
]);

/** What `ALL` means on MySQL 8 for `*.*` (Salt lists the privileges one by one there). */
export const ALL_PRIVILEGES: readonly string[] = [...GRANTS].filter(
  (g) =>
    ![
      'ALL PRIVILEGES',
      'BINLOG ADMIN',
      'BINLOG MONITOR',
      'BINLOG REPLAY',
      'CONNECTION ADMIN',
      'DELETE HISTORY',
      'FEDERATED ADMIN',
      'GRANT OPTION',
      'READ_ONLY ADMIN',
      'REPLICA MONITOR',
      'REPLICATION MASTER ADMIN',
      'REPLICATION REPLICA',
      'REPLICATION SLAVE ADMIN',
      'SET USER',
      'SLAVE MONITOR',
      'USAGE',
    ].includes(g),
);

const WORDCHARS = /[A-Za-z0-9_"]/;
const WHITESPACE = /[ \t\r\n]/;

/** Python's `shlex.shlex(s)` in non-POSIX mode with quotes `'` and `` ` `` and `"` as a word char. */
export function shlexTokens(s: string): string[] {
  const out: string[] = [];
  let state: 'space' | 'word' | "'" | '`' = 'space';
  let token = '';
  const emit = () => {
    if (token) out.push(token);
    token = '';
    state = 'space';
  };
  for (let i = 0; i < s.length; i++) {
    const c = s[i] as string;
    if (state === 'space') {
      if (WHITESPACE.test(c)) continue;
      if (WORDCHARS.test(c)) {
        token = c;
        state = 'word';
      } else if (c === "'" || c === '`') {
        token = c;
        state = c;
      } else {
        token = c;
        emit();
      }
    } else if (state === 'word') {
      if (WHITESPACE.test(c)) emit();
      else if (WORDCHARS.test(c) || c === "'" || c === '`') token += c;
      else {
        emit();
        i--;
      }
    } else {
      token += c;
      if (c === state) emit();
    }
  }
  if (state === "'" || state === '`') throw new SALT_ERR_INVOCATION('No closing quotation');
  if (token) out.push(token);
  return out;
}

/** A grant statement split as Salt's `_grant_to_tokens` splits it. */
export interface GrantTokens {
  user: string;
  host: string;
  grant: string[];
  database: string;
}

/** A GRANT statement with `%(user)s@%(host)s` placeholders and their values (Salt's dict form). */
export interface GrantQuery {
  qry: string;
  args: { user: string; host: string };
}

/** Salt's `_grant_to_tokens` over a `SHOW GRANTS` line or a generated {@link GrantQuery}. */
export function grantToTokens(grant: string | GrantQuery): GrantTokens {
  const dictMode = typeof grant !== 'string';
  const sql = dictMode ? grant.qry.replace(/%%/g, '%') : grant;
  let host: string | undefined = dictMode ? grant.args.host : undefined;
  let user = dictMode ? grant.args.user : '';
  const ex = shlexTokens(sql);
  const tokens: string[] = [];
  let multi: string[] = [];
  let pos = 1;
  let database = '';
  let phrase = 'grants';
  let column = false;
  let current = '';
  for (let token of ex.slice(1)) {
    if (phrase === 'grants' && token === ',') {
      pos++;
      continue;
    }
    if (phrase === 'grants' && (token === '(' || token === ')')) {
      pos++;
      column = token === '(';
      continue;
    }
    if (token === 'ON' && phrase === 'grants') {
      phrase = 'db';
      pos++;
      continue;
    } else if (token === 'TO' && phrase === 'tables') {
      phrase = 'user';
      pos++;
      continue;
    } else if (token === '@' && phrase === 'pre-host') {
      phrase = 'host';
      pos++;
      continue;
    }
    const next = ex[pos + 1];
    if (phrase === 'grants') {
      if (next === ',' || next === 'ON' || next === '(' || next === ')') {
        if (multi.length > 0) {
          multi.push(token);
          tokens.push(multi.join(' '));
          multi = [];
        } else {
          if (!column) current = token;
          else token = `${current}.${token}`;
          tokens.push(token);
        }
      } else multi.push(token);
    } else if (phrase === 'db') {
      database += token;
      if (next === undefined) break;
      if (next === '.') phrase = 'tables';
    } else if (phrase === 'tables') database += token;
    else if (phrase === 'user') {
      if (dictMode) break;
      user += token;
      if (next === '@') phrase = 'pre-host';
    } else if (phrase === 'host') {
      host = token;
      break;
    }
    pos++;
  }
  const strip = (v: string) => v.replace(/^'+|'+$/g, '');
  if (host === undefined) return { user: dictMode ? user : strip(user), host: '', grant: tokens, database };
  if (!dictMode) {
    user = strip(user);
    host = strip(host);
  }
  return { user, host, grant: tokens, database };
}

/** Salt's `_resolve_grant_aliases`: MariaDB reports some privileges under newer names. */
export function resolveGrantAliases(grants: readonly string[], serverVersion: string): string[] {
  if (!serverVersion.includes('MariaDB')) return [...grants];
  return grants.map((t) => {
    if (t === 'REPLICATION REPLICA' && versionCmp(serverVersion, '10.5.1') >= 0) return 'REPLICATION SLAVE';
    if (t === 'REPLICATION CLIENT' && versionCmp(serverVersion, '10.5.2') >= 0) return 'BINLOG MONITOR';
    if (t === 'REPLICA MONITOR' && versionCmp(serverVersion, '10.5.9') >= 0) return 'SLAVE MONITOR';
    return t;
  });
}

/** Python's `re.findall(r"([\w\s]+)(\([^)(]*\))?\s*,?", grant)`: each privilege and its column list. */
export function grantSplit(grant: string): Array<[string, string]> {
  return [...grant.matchAll(/([\w\s]+)(\([^)(]*\))?\s*,?/gu)].map((m) => [m[1] ?? '', m[2] ?? '']);
}

const COLUMN_LIST = /^\(\s*`?[\w$]+`?(\s*,\s*`?[\w$]+`?)*\s*\)$/u;

/**
 * Salt's `__grant_normalize`: `ALL` as `ALL PRIVILEGES`, every privilege checked against
 * {@link GRANTS}; tsalt also refuses a column list that is not plain column names, and text
 * outside the privileges (both pasted into the statement).
 * @throws SALT_ERR_INVOCATION `Invalid grant : '<name>'` (Salt's text)
 * @throws SALT_ERR_MYSQL_IDENTIFIER for a column list or text that could break out
 */
export function grantNormalize(grant: string): string {
  const g = grant.trim().toUpperCase() === 'ALL' ? 'ALL PRIVILEGES' : grant;
  const parts = grantSplit(g);
  for (const [name, cols] of parts) {
    if (!GRANTS.has(name.trim().toUpperCase())) throw new SALT_ERR_INVOCATION(`Invalid grant : '${name}'`);
    if (cols && !COLUMN_LIST.test(cols)) throw new SALT_ERR_MYSQL_IDENTIFIER('the column list', cols);
  }
  const covered = [...g.matchAll(/([\w\s]+)(\([^)(]*\))?\s*,?/gu)].map((m) => m[0]).join('');
  if (covered.length !== g.length) throw new SALT_ERR_MYSQL_IDENTIFIER('the grant', g);
  return g;
}

const SSL_PARAMETERIZED = ['CIPHER', 'ISSUER', 'SUBJECT'];
const SSL_OPTIONS = [...SSL_PARAMETERIZED, 'SSL', 'X509'];

/** Salt's `__ssl_option_sanitize`: ` REQUIRE ...` from a list of one-key dicts. */
export function sslOptionSanitize(sslOption: readonly unknown[]): string {
  const out: string[] = [];
  for (const opt of sslOption) {
    const entry = Object.entries((opt ?? {}) as Record<string, unknown>)[0];
    if (!entry) continue;
    const [key, value] = entry;
    const norm = key.trim().toUpperCase();
    if (!SSL_OPTIONS.includes(norm)) throw new SALT_ERR_INVOCATION(`Invalid SSL option : '${key}'`);
    if (SSL_PARAMETERIZED.includes(norm)) {
      const v = String(value).replace(/'/g, '');
      if (v.includes('\\')) throw new SALT_ERR_MYSQL_IDENTIFIER(`the SSL option ${norm}`, v);
      out.push(`${norm} '${v}'`);
    } else if (value) out.push(norm);
  }
  return ` REQUIRE ${out.join(' AND ')}`;
}

const RAW_NAME = /^(\*|`(?:[^`]|``)+`|[\w$%\\-]+)$/u;

/** A database or table name pasted unquoted (`escape=False`): refused unless it is plain. */
function rawName(what: string, name: string): string {
  if (!RAW_NAME.test(name)) throw new SALT_ERR_MYSQL_IDENTIFIER(what, name);
  return name;
}

/** Python's `str.rpartition('.')`: [before, after] the last dot ('' and the whole without one). */
export function rpartitionDot(s: string): [string, string] {
  const i = s.lastIndexOf('.');
  return i < 0 ? ['', s] : [s.slice(0, i), s.slice(i + 1)];
}

/** Salt's `__grant_generate`: the GRANT statement for `grant` on `database` to user@host. */
export function grantGenerate(
  grant: string,
  database: string,
  user: string,
  host: string,
  grantOption: boolean,
  quoteNames: boolean,
  sslOption: unknown = false,
): GrantQuery {
  const g = grantNormalize(grant.replace(/\s*,\s*/g, ', ').toUpperCase());
  let [dbc, table] = rpartitionDot(database);
  if (quoteNames) {
    if (dbc !== '*') dbc = quoteIdentifier(dbc, table === '*');
    if (table !== '*') table = quoteIdentifier(table);
  } else {
    dbc = rawName('the database', dbc);
    table = rawName('the table', table);
  }
  let qry = `GRANT ${g} ON ${dbc}.${table} TO %(user)s@%(host)s`;
  if (Array.isArray(sslOption) && sslOption.length > 0) qry += sslOptionSanitize(sslOption);
  if (grantOption) qry += ' WITH GRANT OPTION';
  return { qry, args: { user, host } };
}
