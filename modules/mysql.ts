/**
 * Salt's `mysql` execution module (`salt/modules/mysql.py`): server status, queries,
 * databases, accounts and grants on a MySQL or MariaDB server, through the `mysql2` driver
 * (loaded when a function first connects). Connection keywords (`connection_host`,
 * `connection_user`, `connection_pass`, `connection_port`, `connection_unix_socket`,
 * `connection_db`, `connection_charset`, `connection_default_file`) default to the `mysql.*`
 * options; the password reaches the server only.
 */
import { defineFunction, defineModule } from '../kernel/index.js';
import { cli, connArgs, flag, grantArgs, grantTarget, name, truthy, u } from './_mysql-args.js';
import {
  alterDb,
  dbCreate,
  dbExists,
  dbGet,
  dbList,
  dbRemove,
  dbTables,
  mysqlQuery,
  mysqlStatus,
  mysqlVersion,
} from './_mysql-db.js';
import { grantAdd, grantExists, grantRevoke, userGrants } from './_mysql-grant-fns.js';
import { grantToTokens } from './_mysql-grants.js';
import { quoteIdentifier } from './_mysql-sql.js';
import {
  pluginStatus,
  userChpass,
  userCreate,
  userExists,
  userInfo,
  userList,
  userRemove,
} from './_mysql-users.js';

const str = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

export default defineModule({
  name: 'mysql',
  doc: 'Manage MySQL and MariaDB servers: status, queries, databases, users and grants (mysql.host, mysql.port, mysql.user, mysql.pass, mysql.db, mysql.unix_socket, mysql.charset, mysql.default_file).',
  functions: {
    version: defineFunction({
      args: (z) => z.object({}),
      varkw: true,
      doc: `Return the version of a MySQL server using the output from the \`\`SELECT VERSION()\`\` query.${cli('version')}`,
      run: (ctx, _a, x) => mysqlVersion(ctx, connArgs(x)),
    }),
    status: defineFunction({
      args: (z) => z.object({}),
      varkw: true,
      doc: `Return the status of a MySQL server using the output from the \`\`SHOW STATUS\`\` query.${cli('status')}`,
      run: (ctx, _a, x) => mysqlStatus(ctx, connArgs(x)),
    }),
    query: defineFunction({
      args: (z) => z.object({ database: name(z), query: name(z) }),
      varkw: true,
      doc: `Run an arbitrary SQL query and return the results or the number of affected rows.${cli('query mydb "UPDATE mytable set myfield=1 limit 1"')}`,
      run: (ctx, a, x) => mysqlQuery(ctx, a.database, a.query, connArgs(x)),
    }),
    db_list: defineFunction({
      args: (z) => z.object({}),
      varkw: true,
      doc: `Return a list of databases of a MySQL server using the output from the \`\`SHOW DATABASES\`\` query.${cli('db_list')}`,
      run: (ctx, _a, x) => dbList(ctx, connArgs(x)),
    }),
    db_get: defineFunction({
      args: (z) => z.object({ name: name(z) }),
      varkw: true,
      doc: `Return the default character set and collation of a database.${cli('db_get test')}`,
      run: (ctx, a, x) => dbGet(ctx, a.name, connArgs(x)),
    }),
    alter_db: defineFunction({
      args: (z) => z.object({ name: name(z), character_set: u(z), collate: u(z) }),
      varkw: true,
      doc: `Modify a database's character set and collation (\`\`ALTER DATABASE\`\`).${cli('alter_db testdb charset=latin1')}`,
      run: (ctx, a, x) => alterDb(ctx, a.name, str(a.character_set), str(a.collate), connArgs(x)),
    }),
    db_tables: defineFunction({
      args: (z) => z.object({ name: name(z) }),
      varkw: true,
      doc: `Shows the tables in the given MySQL database (if exists).${cli("db_tables 'database'")}`,
      run: (ctx, a, x) => dbTables(ctx, a.name, connArgs(x)),
    }),
    db_exists: defineFunction({
      args: (z) => z.object({ name: name(z) }),
      varkw: true,
      doc: `Checks if a database exists on the MySQL server.${cli("db_exists 'dbname'")}`,
      run: (ctx, a, x) => dbExists(ctx, a.name, connArgs(x)),
    }),
    db_create: defineFunction({
      args: (z) => z.object({ name: name(z), character_set: u(z), collate: u(z) }),
      varkw: true,
      doc: `Adds a databases to the MySQL server.

name: the name of the database to manage; character_set, collate: the server's defaults when not given.${cli("db_create 'dbname' 'utf8' 'utf8_general_ci'")}`,
      run: (ctx, a, x) => dbCreate(ctx, a.name, a.character_set, a.collate, connArgs(x)),
    }),
    db_remove: defineFunction({
      args: (z) => z.object({ name: name(z) }),
      varkw: true,
      doc: `Removes a databases from the MySQL server.${cli("db_remove 'dbname'")}`,
      run: (ctx, a, x) => dbRemove(ctx, a.name, connArgs(x)),
    }),
    user_list: defineFunction({
      args: (z) => z.object({}),
      varkw: true,
      doc: `Return a list of users on a MySQL server.${cli('user_list')}`,
      run: (ctx, _a, x) => userList(ctx, connArgs(x)),
    }),
    user_exists: defineFunction({
      args: (z) =>
        z.object({
          user: name(z),
          host: name(z).default('localhost'),
          password: u(z),
          password_hash: u(z),
          passwordless: flag(z, false),
          unix_socket: flag(z, false),
          password_column: u(z),
        }),
      varkw: true,
      doc: `Checks if a user exists on the MySQL server. A login can be checked to see if passwordless login is permitted by omitting \`\`password\`\` and \`\`password_hash\`\`, and using \`\`passwordless=True\`\`.${cli("user_exists 'username' 'hostname' 'password'")}`,
      run: (ctx, a, x) => userExists(ctx, a.user, a.host, a, connArgs(x)),
    }),
    user_info: defineFunction({
      args: (z) => z.object({ user: name(z), host: name(z).default('localhost') }),
      varkw: true,
      doc: `Get full info on a MySQL user.${cli('user_info root localhost')}`,
      run: (ctx, a, x) => userInfo(ctx, a.user, a.host, connArgs(x)),
    }),
    user_create: defineFunction({
      args: (z) =>
        z.object({
          user: name(z),
          host: name(z).default('localhost'),
          password: u(z),
          password_hash: u(z),
          allow_passwordless: flag(z, false),
          unix_socket: flag(z, false),
          password_column: u(z),
          auth_plugin: z.unknown().default('mysql_native_password'),
        }),
      varkw: true,
      doc: `Creates a MySQL user.

host: host for which this user/password combo applies; password, or password_hash (\`\`SELECT PASSWORD('mypass')\`\`); allow_passwordless: permit a passwordless login; unix_socket: the unix_socket auth plugin; password_column, auth_plugin.${cli("user_create 'username' 'hostname' 'password'")}`,
      run: (ctx, a, x) => userCreate(ctx, a.user, a.host, a, connArgs(x)),
    }),
    user_chpass: defineFunction({
      args: (z) =>
        z.object({
          user: name(z),
          host: name(z).default('localhost'),
          password: u(z),
          password_hash: u(z),
          allow_passwordless: flag(z, false),
          unix_socket: u(z),
          password_column: u(z),
        }),
      varkw: true,
      doc: `Change password for a MySQL user; with allow_passwordless and no password, clear it.${cli('user_chpass frank localhost newpassword')}`,
      run: (ctx, a, x) => userChpass(ctx, a.user, a.host, a, connArgs(x)),
    }),
    user_remove: defineFunction({
      args: (z) => z.object({ user: name(z), host: name(z).default('localhost') }),
      varkw: true,
      doc: `Delete MySQL user.${cli('user_remove frank localhost')}`,
      run: (ctx, a, x) => userRemove(ctx, a.user, a.host, connArgs(x)),
    }),
    user_grants: defineFunction({
      args: (z) => z.object({ user: name(z), host: name(z).default('localhost') }),
      varkw: true,
      doc: `Shows the grants for the given MySQL user (if it exists).${cli("user_grants 'frank' 'localhost'")}`,
      run: (ctx, a, x) => userGrants(ctx, a.user, a.host, connArgs(x)),
    }),
    grant_exists: defineFunction({
      args: (z) => z.object(grantArgs(z)),
      varkw: true,
      doc: `Checks to see if a grant exists in the database.${cli("grant_exists 'SELECT,INSERT,UPDATE,...' 'database.*' 'frank' 'localhost'")}`,
      run: (ctx, a, x) => grantExists(ctx, grantTarget(a), connArgs(x)),
    }),
    grant_add: defineFunction({
      args: (z) => z.object({ ...grantArgs(z), ssl_option: flag(z, false) }),
      varkw: true,
      doc: `Adds a grant to the MySQL server. For database, make sure you specify database.table or database.*${cli("grant_add 'SELECT,INSERT,UPDATE,...' 'database.*' 'frank' 'localhost'")}`,
      run: (ctx, a, x) => grantAdd(ctx, grantTarget(a), a.ssl_option, connArgs(x)),
    }),
    grant_revoke: defineFunction({
      args: (z) => z.object(grantArgs(z)),
      varkw: true,
      doc: `Removes a grant from the MySQL server.${cli("grant_revoke 'SELECT,INSERT,UPDATE' 'database.*' 'frank' 'localhost'")}`,
      run: (ctx, a, x) => grantRevoke(ctx, grantTarget(a), connArgs(x)),
    }),
    tokenize_grant: defineFunction({
      args: (z) => z.object({ grant: z.string() }),
      doc: `Split a GRANT statement into user, host, grant and database (the mysql_grants state's shape).${cli(`tokenize_grant "GRANT SELECT, INSERT ON testdb.* TO 'testuser'@'localhost'"`)}`,
      run: (_ctx, a) => grantToTokens(a.grant),
    }),
    quote_identifier: defineFunction({
      args: (z) => z.object({ identifier: name(z), for_grants: flag(z, false) }),
      inline: true,
      doc: `Return an identifier name (column, table, database, etc) escaped for MySQL: in backquotes, a backquote doubled, \`\`%\`\` doubled for the driver; for_grants also escapes \`\`_\`\`.${cli("quote_identifier 'foo`bar'")}`,
      run: (_ctx, a) => quoteIdentifier(a.identifier, truthy(a.for_grants)),
    }),
    plugin_status: defineFunction({
      args: (z) => z.object({ name: name(z) }),
      varkw: true,
      doc: `Return the status of a plugin.${cli('plugin_status auth_socket')}`,
      run: (ctx, a, x) => pluginStatus(ctx, a.name, connArgs(x)),
    }),
  },
});
