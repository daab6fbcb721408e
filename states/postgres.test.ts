import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryLogger } from '../modules/_fake-ctx.js';
import { md5Verifier } from '../modules/_pg-password.js';
import configMod from '../modules/config.js';
import postgresMod from '../modules/postgres.js';
import type { StateModuleDef } from '../plugins/states/index.js';
import { type PostgresTestServer, SKIP_DB_TESTS, startPostgres } from '../tools/db-servers.js';
import { moduleCtx, runState } from './_test-ctx.js';
import pgDatabase from './postgres_database.js';
import pgExtension from './postgres_extension.js';
import pgGroup from './postgres_group.js';
import pgLanguage from './postgres_language.js';
import pgSchema from './postgres_schema.js';
import pgUser from './postgres_user.js';

// A private PostgreSQL cluster (tools/db-servers.ts: initdb in a temp dir, a free port) reached
// through the postgres.* options, as a minion config would give them; expectations: Salt
// 3006.18's returns for the same steps against the same kind of cluster.
describe.skipIf(SKIP_DB_TESTS)('postgres module and postgres_* states (real server)', () => {
  let server: PostgresTestServer;
  const log = memoryLogger();
  let ctx: ReturnType<typeof moduleCtx>;
  const call = (fun: string, args: unknown[] = [], kw: Record<string, unknown> = {}) =>
    ctx.call(fun, args, kw);
  const st = (mod: StateModuleDef, fn: string, kw: Record<string, unknown>, test = false) =>
    runState(mod, fn, kw, { ctx, test });

  beforeAll(async () => {
    server = await startPostgres();
    ctx = moduleCtx([postgresMod, configMod], {
      opts: { 'postgres.host': server.host, 'postgres.port': server.port, 'postgres.user': server.user },
      log,
    });
  });
  afterAll(async () => {
    await server?.destroy();
  });

  it('reads the server: version, databases, roles, extensions, schemas, CSV queries', async () => {
    expect(await call('postgres.version')).toMatch(/^\d+\.\d+/);
    const dbs = (await call('postgres.db_list')) as Record<string, Record<string, string>>;
    expect(dbs.salt).toEqual({
      Owner: 'salt',
      Encoding: 'UTF8',
      Collate: 'C',
      Ctype: 'C',
      'Access privileges': '',
      Tablespace: 'pg_default',
    });
    expect(dbs.template0?.['Access privileges']).toBe('{=c/salt,salt=CTc/salt}');
    expect(await call('postgres.role_get', ['salt'])).toEqual({
      superuser: true,
      'inherits privileges': true,
      'can create roles': true,
      'can create databases': true,
      'can update system catalogs': null,
      'can login': true,
      replication: true,
      connections: null,
      'expiry time': null,
      'defaults variables': '',
      groups: [],
    });
    expect(await call('postgres.user_exists', ['nobody_here'])).toBe(false);
    expect(await call('postgres.is_installed_extension', ['plpgsql'])).toBe(true);
    expect(await call('postgres.create_metadata', ['plpgsql'])).toEqual(['EXTENSION INSTALLED']);
    expect(await call('postgres.schema_get', ['salt', 'public'])).toMatchObject({
      owner: 'pg_database_owner',
    });
    expect(
      await call('postgres.psql_query', [`select 1 as a, null as b, 'x,"y' || chr(10) || 'z' as c`]),
    ).toEqual([{ a: '1', b: '', c: 'x,"y\nz' }]);
  });

  it('creates, updates and removes roles, databases, schemas and extensions', async () => {
    expect(await call('postgres.group_create', ['t_grp'])).toBe(true);
    expect(await call('postgres.group_create', ['t_grp'])).toBe(false);
    expect(
      await call('postgres.user_create', ['t_usr'], {
        connlimit: 5,
        valid_until: '2030-01-01',
        groups: 't_grp',
      }),
    ).toBe(true);
    expect(await call('postgres.role_get', ['t_usr'])).toMatchObject({
      'can login': true,
      'expiry time': '2030-01-01 00:00:00',
      groups: ['t_grp'],
    });
    expect(await call('postgres.user_update', ['t_usr'], { createdb: true })).toBe(true);
    expect(await call('postgres.role_get', ['t_usr'])).toMatchObject({ 'can create databases': true });
    expect(await call('postgres.db_create', ['t_db'], { owner: 't_usr' })).toBe(true);
    expect(await call('postgres.db_create', ['t_db'])).toBe(false);
    expect(await call('postgres.schema_create', ['t_db', 't_sch'], { owner: 't_usr' })).toBe(true);
    expect(await call('postgres.schema_get', ['t_db', 't_sch'])).toEqual({ owner: 't_usr', acl: '' });
    expect(await call('postgres.create_extension', ['pg_trgm'], { maintenance_db: 't_db' })).toBe(true);
    expect(await call('postgres.is_installed_extension', ['pg_trgm'], { maintenance_db: 't_db' })).toBe(true);
    expect(await call('postgres.drop_extension', ['pg_trgm'], { maintenance_db: 't_db' })).toBe(true);
    // Salt's owner_recurse fails (a str written to a binary temp file); here it hands everything over
    expect(await call('postgres.db_alter', ['t_db'], { owner: 't_grp', owner_recurse: true })).toBe(true);
    expect(await call('postgres.schema_get', ['t_db', 't_sch'])).toMatchObject({ owner: 't_grp' });
    expect(await call('postgres.schema_remove', ['t_db', 't_sch'])).toBe(true);
    expect(await call('postgres.schema_remove', ['t_db', 't_sch'])).toBe(false);
    expect(await call('postgres.db_remove', ['t_db'])).toBe(true);
    expect(await call('postgres.db_exists', ['t_db'])).toBe(false);
    expect(await call('postgres.user_remove', ['t_usr'])).toBe(true);
    expect(await call('postgres.user_remove', ['t_usr'])).toBe(false);
    expect(await call('postgres.group_remove', ['t_grp'])).toBe(true);
  });

  it('postgres_user/group/database: predict, apply, then find nothing to do; passwords never shown', async () => {
    const pw = 'pg-s3cret-pw';
    const app = { name: 's_app', password: pw, groups: ['s_grp'], valid_until: '2031-02-03' };
    expect(await st(pgGroup, 'present', { name: 's_grp', createdb: true })).toEqual({
      name: 's_grp',
      changes: { s_grp: 'Present' },
      result: true,
      comment: 'The group s_grp has been created',
    });
    expect(await st(pgUser, 'present', app, true)).toEqual({
      name: 's_app',
      changes: {},
      result: null,
      comment: 'User s_app is set to be created',
    });
    expect(await st(pgUser, 'present', app)).toEqual({
      name: 's_app',
      changes: { s_app: 'Present' },
      result: true,
      comment: 'The user s_app has been created',
    });
    expect(await st(pgUser, 'present', app, true)).toEqual({
      name: 's_app',
      changes: {},
      result: true,
      comment: 'User s_app is already present',
    });
    const stored = (await call('postgres.role_get', ['s_app'], { return_password: true })) as Record<
      string,
      unknown
    >;
    expect(stored.password).toBe(md5Verifier('s_app', pw));
    const scram = { name: 's_app2', password: 'other', encrypted: 'scram-sha-256', login: false };
    await st(pgUser, 'present', scram);
    expect(await st(pgUser, 'present', { ...scram, superuser: true }, true)).toEqual({
      name: 's_app2',
      changes: { s_app2: { superuser: true } },
      result: null,
      comment: 'User s_app2 is set to be updated',
    });
    expect(await st(pgUser, 'present', { ...app, password: 'changed', createdb: true })).toEqual({
      name: 's_app',
      changes: { s_app: { createdb: true, password: true } },
      result: true,
      comment: 'The user s_app has been updated',
    });
    const db = { name: 's_db', owner: 's_app', encoding: 'UTF8' };
    expect(await st(pgDatabase, 'present', db, true)).toMatchObject({
      result: null,
      comment: 'Database s_db is set to be created',
    });
    expect(await st(pgDatabase, 'present', db)).toMatchObject({ changes: { s_db: 'Present' }, result: true });
    expect(await st(pgDatabase, 'present', { ...db, owner: 's_app2' })).toEqual({
      name: 's_db',
      changes: { s_db: 'Parameters changed' },
      result: true,
      comment: 'Parameters for database s_db have been changed',
    });
    expect(await st(pgDatabase, 'present', { name: 's_db', lc_collate: 'en_US.UTF-8' })).toEqual({
      name: 's_db',
      changes: {},
      result: false,
      comment: "Database s_db has wrong parameters which couldn't be changed on fly.",
    });
    expect(await st(pgDatabase, 'absent', { name: 's_db' })).toMatchObject({ changes: { s_db: 'Absent' } });
    for (const name of ['s_app', 's_app2'])
      expect(await st(pgUser, 'absent', { name })).toEqual({
        name,
        changes: { [name]: 'Absent' },
        result: true,
        comment: `User ${name} has been removed`,
      });
    expect(await st(pgGroup, 'absent', { name: 's_grp' }, true)).toMatchObject({
      result: null,
      comment: 'Group s_grp is set to be removed',
    });
    expect(await st(pgGroup, 'absent', { name: 's_grp' })).toMatchObject({ changes: { s_grp: 'Absent' } });
    expect(await st(pgUser, 'absent', { name: 's_none' })).toMatchObject({
      comment: 'User s_none is not present, so it cannot be removed',
    });
    expect(JSON.stringify(log.lines)).not.toContain(pw);
    expect(JSON.stringify(log.lines)).not.toContain(md5Verifier('s_app', pw));
  });

  it('postgres_schema and postgres_extension: create, move, remove, as Salt reports them', async () => {
    await st(pgUser, 'present', { name: 'x_own' });
    await st(pgDatabase, 'present', { name: 'x_db', owner: 'x_own' });
    const sch = { dbname: 'x_db', name: 'x_sch', owner: 'x_own' };
    expect(await st(pgSchema, 'present', sch, true)).toEqual({
      dbname: 'x_db',
      name: 'x_sch',
      changes: {},
      result: null,
      comment: 'Schema x_sch is set to be created in database x_db.',
    });
    expect(await st(pgSchema, 'present', sch)).toEqual({
      dbname: 'x_db',
      name: 'x_sch',
      changes: { x_sch: 'Present' },
      result: true,
      comment: 'Schema x_sch has been created in database x_db',
    });
    expect(await st(pgSchema, 'present', sch)).toMatchObject({
      changes: {},
      comment: 'Schema x_sch already exists in database x_db',
    });
    const ext = { name: 'citext', maintenance_db: 'x_db', schema: 'x_sch' };
    expect(await st(pgExtension, 'present', ext, true)).toMatchObject({
      result: null,
      comment: 'Extension citext is set to be installed',
    });
    expect(await st(pgExtension, 'present', ext)).toEqual({
      name: 'citext',
      changes: { citext: 'Installed' },
      result: true,
      comment: 'The extension citext has been installed',
    });
    const moved = { ...ext, schema: 'public' };
    expect(await st(pgExtension, 'present', moved, true)).toMatchObject({
      result: null,
      comment: 'Extension citext is set to be upgraded',
    });
    expect(await st(pgExtension, 'present', moved)).toEqual({
      name: 'citext',
      changes: { citext: 'Upgraded' },
      result: true,
      comment: 'The extension citext has been upgraded',
    });
    expect(await st(pgExtension, 'present', moved)).toMatchObject({
      changes: {},
      comment: 'Extension citext is already present',
    });
    expect(await st(pgExtension, 'absent', { name: 'citext', maintenance_db: 'x_db' })).toEqual({
      name: 'citext',
      changes: { citext: 'Absent' },
      result: true,
      comment: 'Extension citext has been removed',
    });
    expect(await st(pgSchema, 'absent', { dbname: 'x_db', name: 'x_sch' })).toEqual({
      name: 'x_sch',
      dbname: 'x_db',
      changes: { x_sch: 'Absent' },
      result: true,
      comment: 'Schema x_sch has been removed from database x_db',
    });
    expect(await st(pgSchema, 'absent', { dbname: 'x_db', name: 'x_sch' })).toMatchObject({
      comment: 'Schema x_sch is not present in database x_db, so it cannot be removed',
    });
    await st(pgDatabase, 'absent', { name: 'x_db' });
    await st(pgUser, 'absent', { name: 'x_own' });
  });

  it('postgres_language and the language functions', async () => {
    expect(await call('postgres.language_list', ['salt'])).toMatchObject({ plpgsql: 'plpgsql', sql: 'sql' });
    expect(await call('postgres.language_create', ['plpgsql', 'salt'])).toBe(false);
    expect(await call('postgres.language_remove', ['plnope', 'salt'])).toBe(false);
    expect(await st(pgLanguage, 'present', { name: 'plpgsql', maintenance_db: 'salt' })).toEqual({
      name: 'plpgsql',
      changes: {},
      result: true,
      comment: 'Language plpgsql is already installed',
    });
    expect(await st(pgLanguage, 'present', { name: 'plnope', maintenance_db: 'salt' }, true)).toMatchObject({
      result: null,
      comment: 'Language plnope is set to be installed',
    });
    expect(await st(pgLanguage, 'present', { name: 'plnope', maintenance_db: 'salt' })).toEqual({
      name: 'plnope',
      changes: {},
      result: false,
      comment: 'Failed to install language plnope',
    });
    expect(await st(pgLanguage, 'absent', { name: 'plnope', maintenance_db: 'salt' })).toMatchObject({
      result: true,
      comment: 'Language plnope is not present so it cannot be removed',
    });
  });
});
