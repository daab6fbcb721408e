/**
 * Salt's `postgres` execution module (`salt/modules/postgres.py`): databases, roles (users and
 * groups), schemas, extensions and ownership on a PostgreSQL server, through `psql` as Salt runs
 * it (modules/_pg-run.ts). Connection arguments (`user`, `host`, `port`, `maintenance_db`,
 * `password`, `runas`) default to the `postgres.*` options; the password reaches psql in its
 * environment only.
 */
import { defineFunction, defineModule, type ExecContext } from '../kernel/index.js';
import { cli, conn, name, opt, truthy, u } from './_pg-args.js';
import { clusterFunctions } from './_pg-cluster.js';
import {
  availableExtensions,
  createExtension,
  createMetadata,
  dropExtension,
  installedExtensions,
  isAvailable,
} from './_pg-ext.js';
import { privilegeFunctions } from './_pg-privilege-functions.js';
import { type RoleOpts, roleCreate, roleGet, roleRemove, roleUpdate, userList } from './_pg-roles.js';
import {
  type PgConn,
  pgExec,
  pgVersion,
  psqlPresent,
  psqlQuery,
  quoteDdl,
  runPsql,
  text,
} from './_pg-run.js';
import { ownerTo, type SchemaConn, schemaConn, schemaList } from './_pg-schema.js';
import { tablespaceFunctions } from './_pg-tablespace.js';

async function dbList(ctx: ExecContext, c: PgConn): Promise<Record<string, Record<string, string>>> {
  const q =
    'SELECT datname as "Name", pga.rolname as "Owner", pg_encoding_to_char(encoding) as "Encoding", ' +
    'datcollate as "Collate", datctype as "Ctype", datacl as "Access privileges", spcname as "Tablespace" ' +
    'FROM pg_database pgd, pg_roles pga, pg_tablespace pgts WHERE pga.oid = pgd.datdba AND pgts.oid = pgd.dattablespace';
  const out: Record<string, Record<string, string>> = {};
  for (const row of await psqlQuery(ctx, q, c)) {
    const { Name, ...rest } = row;
    out[Name ?? ''] = rest;
  }
  return out;
}

async function languageList(ctx: ExecContext, c: PgConn): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const row of await psqlQuery(ctx, 'SELECT lanname AS "Name" FROM pg_language', c))
    if (row.Name !== undefined) out[row.Name] = row.Name;
  return out;
}

const ROLE_KEYS = [
  'createdb',
  'createroles',
  'inherit',
  'login',
  'connlimit',
  'encrypted',
  'superuser',
  'replication',
  'rolepassword',
  'valid_until',
  'groups',
] as const;
const roleOpts = (a: Record<string, unknown>): RoleOpts =>
  Object.fromEntries(ROLE_KEYS.filter((k) => k in a).map((k) => [k, a[k]])) as RoleOpts;

export default defineModule({
  name: 'postgres',
  doc: 'Manage PostgreSQL databases, roles, schemas and extensions through psql (postgres.user, postgres.host, postgres.port, postgres.pass, postgres.maintenance_db, postgres.bins_dir).',
  virtual: (ctx) => psqlPresent(ctx.opts),
  functions: {
    ...privilegeFunctions,
    ...tablespaceFunctions,
    ...clusterFunctions,
    version: defineFunction({
      args: (z) => z.object({ ...conn(z), runas: u(z) }),
      doc: `Return the version of a Postgres server.${cli('version')}`,
      run: (ctx, a) => pgVersion(ctx, a),
    }),
    psql_query: defineFunction({
      args: (z) =>
        z.object({ query: z.string(), ...conn(z), runas: u(z), write: z.unknown().default(false) }),
      doc: `Run an SQL query (a SELECT, or a WITH ... RETURNING) and return its rows as a list of dicts; write marks the transaction READ WRITE.${cli('psql_query "select * from pg_stat_activity"')}`,
      run: (ctx, a) => psqlQuery(ctx, a.query, a, truthy(a.write)),
    }),
    db_list: defineFunction({
      args: (z) => z.object({ ...conn(z), runas: u(z) }),
      doc: `Return a dict of the server's databases: owner, encoding, collation, ctype, access privileges and tablespace.${cli('db_list')}`,
      run: (ctx, a) => dbList(ctx, a),
    }),
    db_exists: defineFunction({
      args: (z) => z.object({ name: name(z), ...conn(z), runas: u(z) }),
      doc: `Checks if a database exists on the Postgres server.${cli("db_exists 'dbname'")}`,
      run: async (ctx, a) => a.name in (await dbList(ctx, a)),
    }),
    db_create: defineFunction({
      args: (z) =>
        z.object({
          name: name(z),
          ...conn(z),
          tablespace: u(z),
          encoding: u(z),
          lc_collate: u(z),
          lc_ctype: u(z),
          owner: u(z),
          template: u(z),
          runas: u(z),
        }),
      doc: `Adds a database to the Postgres server.${cli("db_create 'dbname' template=template_postgis")}`,
      run: async (ctx, a) => {
        let q = `CREATE DATABASE "${a.name}"`;
        const withArgs: Array<[string, string | null]> = [
          ['TABLESPACE', quoteDdl(opt(a.tablespace), '"')],
          ['OWNER', quoteDdl(opt(a.owner), '"')],
          ['TEMPLATE', opt(a.template)],
          ['ENCODING', quoteDdl(opt(a.encoding))],
          ['LC_COLLATE', quoteDdl(opt(a.lc_collate))],
          ['LC_CTYPE', quoteDdl(opt(a.lc_ctype))],
        ];
        const chunks = withArgs.filter(([, v]) => v !== null).flatMap(([k, v]) => [k, '=', v as string]);
        if (chunks.length > 0) q += [' WITH', ...chunks].join(' ');
        return pgExec(ctx, q, a);
      },
    }),
    db_alter: defineFunction({
      args: (z) =>
        z.object({
          name: name(z),
          ...conn(z),
          tablespace: u(z),
          owner: u(z),
          owner_recurse: u(z),
          runas: u(z),
        }),
      doc: `Change the tablespace and/or owner of a database; owner_recurse hands its schemas, tables, functions and sequences to the owner too.${cli('db_alter dbname owner=otheruser owner_recurse=True')}`,
      run: async (ctx, a) => {
        const owner = text(a.owner);
        const tablespace = text(a.tablespace);
        if (!owner && !tablespace) return true;
        if (owner && truthy(a.owner_recurse)) return (await ownerTo(ctx, a.name, owner, a)).retcode === 0;
        let ok = true;
        if (owner) ok = await pgExec(ctx, `ALTER DATABASE "${a.name}" OWNER TO "${owner}"`, a);
        if (tablespace)
          ok = await pgExec(ctx, `ALTER DATABASE "${a.name}" SET TABLESPACE "${tablespace}"`, a);
        return ok;
      },
    }),
    db_remove: defineFunction({
      args: (z) => z.object({ name: name(z), ...conn(z), runas: u(z) }),
      doc: `Removes a database from the Postgres server (its open connections are ended first).${cli("db_remove 'dbname'")}`,
      run: async (ctx, a) => {
        for (const q of [
          `REVOKE CONNECT ON DATABASE "${a.name}" FROM public;`,
          `SELECT pid, pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${a.name.replaceAll("'", "''")}' AND pid <> pg_backend_pid();`,
          `DROP DATABASE "${a.name}";`,
        ]) {
          const r = await runPsql(ctx, ['-c', q], a);
          if (r.retcode !== 0) throw new Error(`Failed: psql exited ${r.retcode}: ${r.stderr}`);
        }
        return true;
      },
    }),
    user_list: defineFunction({
      args: (z) => z.object({ ...conn(z), runas: u(z), return_password: u(z) }),
      doc: `Return a dict with information about users of a Postgres server; return_password=True adds the password hash.${cli('user_list')}`,
      run: (ctx, a) => userList(ctx, a, truthy(a.return_password)),
    }),
    role_get: defineFunction({
      args: (z) => z.object({ name: name(z), ...conn(z), runas: u(z), return_password: u(z) }),
      doc: `Return a dict with information about one role, or None.${cli('role_get postgres')}`,
      run: (ctx, a) => roleGet(ctx, a.name, a, truthy(a.return_password)),
    }),
    user_exists: defineFunction({
      args: (z) => z.object({ name: name(z), ...conn(z), runas: u(z) }),
      doc: `Checks if a user exists on the Postgres server.${cli("user_exists 'username'")}`,
      run: async (ctx, a) => Boolean(await roleGet(ctx, a.name, a)),
    }),
    user_create: defineFunction({
      args: (z) =>
        z.object({
          username: name(z),
          ...conn(z),
          createdb: u(z),
          createroles: u(z),
          inherit: u(z),
          login: u(z),
          connlimit: u(z),
          encrypted: u(z),
          superuser: u(z),
          replication: u(z),
          rolepassword: u(z),
          valid_until: u(z),
          groups: u(z),
          runas: u(z),
        }),
      doc: `Creates a Postgres user (a role that can log in); rolepassword is stored as an md5 (default) or scram-sha-256 verifier per encrypted.${cli("user_create 'username' rolepassword='rolepassword' valid_until='valid_until'")}`,
      run: (ctx, a) => roleCreate(ctx, a.username, 'user', roleOpts(a), a),
    }),
    user_update: defineFunction({
      args: (z) =>
        z.object({
          username: name(z),
          ...conn(z),
          createdb: u(z),
          createroles: u(z),
          encrypted: u(z),
          superuser: u(z),
          inherit: u(z),
          login: u(z),
          connlimit: u(z),
          replication: u(z),
          rolepassword: u(z),
          valid_until: u(z),
          groups: u(z),
          runas: u(z),
        }),
      doc: `Updates a Postgres user.${cli("user_update 'username' rolepassword='rolepassword'")}`,
      run: (ctx, a) => roleUpdate(ctx, a.username, 'user', roleOpts(a), a),
    }),
    user_remove: defineFunction({
      args: (z) => z.object({ username: name(z), ...conn(z), runas: u(z) }),
      doc: `Removes a user from the Postgres server.${cli("user_remove 'username'")}`,
      run: (ctx, a) => roleRemove(ctx, a.username, a),
    }),
    group_create: defineFunction({
      args: (z) =>
        z.object({
          groupname: name(z),
          ...conn(z),
          createdb: u(z),
          createroles: u(z),
          encrypted: u(z),
          login: u(z),
          inherit: u(z),
          superuser: u(z),
          replication: u(z),
          rolepassword: u(z),
          groups: u(z),
          runas: u(z),
        }),
      doc: `Creates a Postgres group (a role that cannot log in by default).${cli("group_create 'groupname'")}`,
      run: (ctx, a) => roleCreate(ctx, a.groupname, 'group', roleOpts(a), a),
    }),
    group_update: defineFunction({
      args: (z) =>
        z.object({
          groupname: name(z),
          ...conn(z),
          createdb: u(z),
          createroles: u(z),
          encrypted: u(z),
          inherit: u(z),
          login: u(z),
          superuser: u(z),
          replication: u(z),
          rolepassword: u(z),
          groups: u(z),
          runas: u(z),
        }),
      doc: `Updates a Postgres group.${cli("group_update 'groupname' createdb=True")}`,
      run: (ctx, a) => roleUpdate(ctx, a.groupname, 'group', roleOpts(a), a),
    }),
    group_remove: defineFunction({
      args: (z) => z.object({ groupname: name(z), ...conn(z), runas: u(z) }),
      doc: `Removes a group from the Postgres server.${cli("group_remove 'groupname'")}`,
      run: (ctx, a) => roleRemove(ctx, a.groupname, a),
    }),
    owner_to: defineFunction({
      args: (z) =>
        z.object({
          dbname: name(z),
          ownername: name(z),
          user: u(z),
          host: u(z),
          port: u(z),
          password: u(z),
          runas: u(z),
        }),
      doc: `Set the owner of all schemas, functions, tables, views and sequences of a database to the given role; returns psql's result.${cli('owner_to dbname username')}`,
      run: (ctx, a) => ownerTo(ctx, a.dbname, a.ownername, a),
    }),
    schema_create: defineFunction({
      args: (z) =>
        z.object({
          dbname: name(z),
          name: name(z),
          owner: u(z),
          user: u(z),
          db_user: u(z),
          db_password: u(z),
          db_host: u(z),
          db_port: u(z),
        }),
      doc: `Creates a schema in a database (user: the system user to run psql as; db_*: the connection).${cli("schema_create dbname name owner='owner'")}`,
      run: async (ctx, a) => {
        const c: SchemaConn = { ...a, user: null };
        if ((await schemaList(ctx, a.dbname, c))[a.name]) {
          ctx.log.info(`'${a.name}' already exists in '${a.dbname}'`);
          return false;
        }
        const owner = opt(a.owner);
        const q = `CREATE SCHEMA "${a.name}"${owner === null ? '' : ` AUTHORIZATION "${owner}"`}`;
        return pgExec(ctx, q, schemaConn(a.dbname, a));
      },
    }),
    schema_remove: defineFunction({
      args: (z) =>
        z.object({
          dbname: name(z),
          name: name(z),
          user: u(z),
          db_user: u(z),
          db_password: u(z),
          db_host: u(z),
          db_port: u(z),
        }),
      doc: `Removes a schema from a database.${cli('schema_remove dbname schemaname')}`,
      run: async (ctx, a) => {
        const c: SchemaConn = { ...a, user: null };
        if (!(await schemaList(ctx, a.dbname, c))[a.name]) {
          ctx.log.info(`Schema '${a.name}' does not exist in '${a.dbname}'`);
          return false;
        }
        await pgExec(ctx, `DROP SCHEMA "${a.name}"`, schemaConn(a.dbname, a));
        if (!(await schemaList(ctx, a.dbname, c))[a.name]) return true;
        ctx.log.info(`Failed to delete schema '${a.name}'.`);
        return false;
      },
    }),
    schema_exists: defineFunction({
      args: (z) =>
        z.object({
          dbname: name(z),
          name: name(z),
          user: u(z),
          db_user: u(z),
          db_password: u(z),
          db_host: u(z),
          db_port: u(z),
        }),
      doc: `Checks if a schema exists in a database.${cli('schema_exists dbname schemaname')}`,
      run: async (ctx, a) => Boolean((await schemaList(ctx, a.dbname, { ...a, user: null }))[a.name]),
    }),
    schema_get: defineFunction({
      args: (z) =>
        z.object({
          dbname: name(z),
          name: name(z),
          user: u(z),
          db_user: u(z),
          db_password: u(z),
          db_host: u(z),
          db_port: u(z),
        }),
      doc: `Return a dict with information about a schema (owner, acl), or None.${cli('schema_get dbname name')}`,
      run: async (ctx, a) => (await schemaList(ctx, a.dbname, { ...a, user: null }))[a.name] ?? null,
    }),
    schema_list: defineFunction({
      args: (z) =>
        z.object({
          dbname: name(z),
          user: u(z),
          db_user: u(z),
          db_password: u(z),
          db_host: u(z),
          db_port: u(z),
        }),
      doc: `Return a dict with information about the schemas of a database.${cli('schema_list dbname')}`,
      run: (ctx, a) => schemaList(ctx, a.dbname, a),
    }),
    language_list: defineFunction({
      args: (z) =>
        z.object({
          maintenance_db: name(z),
          user: u(z),
          host: u(z),
          port: u(z),
          password: u(z),
          runas: u(z),
        }),
      doc: `Return the procedural languages of a database, as {name: name}.${cli('language_list dbname')}`,
      run: (ctx, a) => languageList(ctx, a),
    }),
    language_exists: defineFunction({
      args: (z) =>
        z.object({
          name: name(z),
          maintenance_db: name(z),
          user: u(z),
          host: u(z),
          port: u(z),
          password: u(z),
          runas: u(z),
        }),
      doc: `Checks if a language exists in a database.${cli('language_exists plpgsql dbname')}`,
      run: async (ctx, a) => a.name in (await languageList(ctx, a)),
    }),
    language_create: defineFunction({
      args: (z) =>
        z.object({
          name: name(z),
          maintenance_db: name(z),
          user: u(z),
          host: u(z),
          port: u(z),
          password: u(z),
          runas: u(z),
        }),
      doc: `Installs a language into a database; false when it is there already.${cli('language_create plpythonu dbname')}`,
      run: async (ctx, a) => {
        if (a.name in (await languageList(ctx, a))) {
          ctx.log.info(`Language ${a.name} already exists in ${a.maintenance_db}`);
          return false;
        }
        return pgExec(ctx, `CREATE LANGUAGE ${a.name}`, a);
      },
    }),
    language_remove: defineFunction({
      args: (z) =>
        z.object({
          name: name(z),
          maintenance_db: name(z),
          user: u(z),
          host: u(z),
          port: u(z),
          password: u(z),
          runas: u(z),
        }),
      doc: `Removes a language from a database; false when it is not there.${cli('language_remove plpythonu dbname')}`,
      run: async (ctx, a) => {
        if (!(a.name in (await languageList(ctx, a)))) {
          ctx.log.info(`Language ${a.name} does not exist in ${a.maintenance_db}`);
          return false;
        }
        return pgExec(ctx, `DROP LANGUAGE ${a.name}`, a);
      },
    }),
    available_extensions: defineFunction({
      args: (z) => z.object({ ...conn(z), runas: u(z) }),
      doc: `List available postgresql extensions.${cli('available_extensions')}`,
      run: (ctx, a) => availableExtensions(ctx, a),
    }),
    installed_extensions: defineFunction({
      args: (z) => z.object({ ...conn(z), runas: u(z) }),
      doc: `List installed postgresql extensions.${cli('installed_extensions')}`,
      run: (ctx, a) => installedExtensions(ctx, a),
    }),
    get_available_extension: defineFunction({
      args: (z) => z.object({ name: name(z), ...conn(z), runas: u(z) }),
      doc: `Get info about an available postgresql extension.${cli('get_available_extension plpgsql')}`,
      run: async (ctx, a) => (await availableExtensions(ctx, a))[a.name] ?? null,
    }),
    get_installed_extension: defineFunction({
      args: (z) => z.object({ name: name(z), ...conn(z), runas: u(z) }),
      doc: `Get info about an installed postgresql extension.${cli('get_installed_extension plpgsql')}`,
      run: async (ctx, a) => (await installedExtensions(ctx, a))[a.name] ?? null,
    }),
    is_available_extension: defineFunction({
      args: (z) => z.object({ name: name(z), ...conn(z), runas: u(z) }),
      doc: `Test if a specific extension is available.${cli('is_available_extension')}`,
      run: (ctx, a) => isAvailable(ctx, a.name, a),
    }),
    is_installed_extension: defineFunction({
      args: (z) => z.object({ name: name(z), ...conn(z), runas: u(z) }),
      doc: `Test if a specific extension is installed.${cli('is_installed_extension')}`,
      run: async (ctx, a) => Boolean((await installedExtensions(ctx, a))[a.name]),
    }),
    create_metadata: defineFunction({
      args: (z) => z.object({ name: name(z), ext_version: u(z), schema: u(z), ...conn(z), runas: u(z) }),
      doc: `Get lifecycle information about an extension (installed, to upgrade, to move).${cli('create_metadata adminpack')}`,
      run: (ctx, a) => createMetadata(ctx, a.name, opt(a.ext_version), opt(a.schema), a),
    }),
    drop_extension: defineFunction({
      args: (z) =>
        z.object({ name: name(z), if_exists: u(z), restrict: u(z), cascade: u(z), ...conn(z), runas: u(z) }),
      doc: `Drop an installed postgresql extension.${cli('drop_extension adminpack')}`,
      run: (ctx, a) =>
        dropExtension(
          ctx,
          a.name,
          {
            ifExists: truthy(a.if_exists ?? false),
            restrict: truthy(a.restrict ?? false),
            cascade: truthy(a.cascade ?? true),
          },
          a,
        ),
    }),
    create_extension: defineFunction({
      args: (z) =>
        z.object({
          name: name(z),
          if_not_exists: u(z),
          schema: u(z),
          ext_version: u(z),
          from_version: u(z),
          ...conn(z),
          runas: u(z),
        }),
      doc: `Install a postgresql extension, or move or upgrade an installed one.${cli('create_extension adminpack')}`,
      run: (ctx, a) =>
        createExtension(
          ctx,
          a.name,
          {
            ifNotExists: truthy(a.if_not_exists ?? true),
            schema: opt(a.schema),
            extVersion: opt(a.ext_version),
            fromVersion: opt(a.from_version),
          },
          a,
        ),
    }),
  },
});
