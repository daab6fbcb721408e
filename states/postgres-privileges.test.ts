import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryLogger } from '../modules/_fake-ctx.js';
import { runPsql } from '../modules/_pg-run.js';
import configMod from '../modules/config.js';
import postgresMod from '../modules/postgres.js';
import { type PostgresTestServer, SKIP_DB_TESTS, startPostgres } from '../tools/db-servers.js';
import { moduleCtx, runState } from './_test-ctx.js';
import pgPrivileges from './postgres_privileges.js';

// A private cluster (tools/db-servers.ts); expectations: Salt 3006.18's returns for the same
// SLS and calls against the same kind of cluster (/tmp/pg13 comparison, README).
describe.skipIf(SKIP_DB_TESTS)(
  'postgres privileges: module functions and postgres_privileges (real server)',
  () => {
    let server: PostgresTestServer;
    const log = memoryLogger();
    let ctx: ReturnType<typeof moduleCtx>;
    const call = (fun: string, args: unknown[] = [], kw: Record<string, unknown> = {}) =>
      ctx.call(fun, args, kw);
    const st = (fn: string, kw: Record<string, unknown>, test = false) =>
      runState(pgPrivileges, fn, { maintenance_db: 'pv_db', ...kw }, { ctx, test });

    beforeAll(async () => {
      server = await startPostgres();
      ctx = moduleCtx([postgresMod, configMod], {
        opts: {
          'postgres.host': server.host,
          'postgres.port': String(server.port),
          'postgres.user': server.user,
          'postgres.pass': 'pv-conn-s3cret',
        },
        log,
      });
      await call('postgres.user_create', ['pv_usr']);
      await call('postgres.group_create', ['pv_grp']);
      await call('postgres.db_create', ['pv_db']);
      for (const ddl of [
        'CREATE TABLE t1 (a int)',
        'CREATE SEQUENCE s1',
        'CREATE SCHEMA sch',
        'CREATE TABLE sch.t3 (a int)',
        "CREATE FUNCTION f1(integer) RETURNS integer LANGUAGE sql AS 'SELECT $1'",
      ]) {
        const r = await runPsql(ctx, ['-c', ddl], { maintenance_db: 'pv_db' });
        expect(r.retcode, r.stderr).toBe(0);
      }
    });
    afterAll(async () => {
      await server?.destroy();
    });

    it('lists ACLs as Salt does: {role: {PRIVILEGE: grantable}}, PUBLIC as public, a group as {member: admin}', async () => {
      expect(await call('postgres.privileges_list', ['t1', 'table'], { maintenance_db: 'pv_db' })).toEqual(
        {},
      );
      expect(await call('postgres.privileges_list', ['pv_db', 'database'])).toEqual({});
      expect(
        await call('postgres.privileges_grant', ['pv_usr', 't1', 'table', 'SELECT,insert'], {
          grant_option: true,
          maintenance_db: 'pv_db',
        }),
      ).toBe(true);
      expect(await call('postgres.privileges_list', ['t1', 'table'], { maintenance_db: 'pv_db' })).toEqual({
        salt: {
          INSERT: false,
          SELECT: false,
          UPDATE: false,
          DELETE: false,
          TRUNCATE: false,
          REFERENCES: false,
          TRIGGER: false,
        },
        pv_usr: { INSERT: true, SELECT: true },
      });
      expect(
        await call('postgres.privileges_list', ['public', 'schema'], { maintenance_db: 'pv_db' }),
      ).toEqual({
        pg_database_owner: { USAGE: false, CREATE: false },
        public: { USAGE: false },
      });
      expect(
        await call('postgres.has_privileges', ['pv_usr', 't1', 'table', 'SELECT'], {
          grant_option: true,
          maintenance_db: 'pv_db',
        }),
      ).toBe(false);
      expect(
        await call('postgres.has_privileges', ['pv_usr', 't1', 'table', 'select'], {
          maintenance_db: 'pv_db',
        }),
      ).toBe(true);
      expect(
        await call('postgres.has_privileges', ['pv_usr', 't1', 'table', 'ALL'], { maintenance_db: 'pv_db' }),
      ).toBe(false);
      expect(
        await call('postgres.has_privileges', ['salt', 't1', 'table', 'ALL'], { maintenance_db: 'pv_db' }),
      ).toBe(true);
      expect(
        await call('postgres.privileges_grant', ['pv_usr', 't1', 'table', 'SELECT'], {
          maintenance_db: 'pv_db',
        }),
      ).toBe(false);
      expect(
        await call('postgres.privileges_revoke', ['pv_usr', 't1', 'table', 'SELECT,INSERT'], {
          maintenance_db: 'pv_db',
        }),
      ).toBe(true);
      expect(
        await call('postgres.privileges_revoke', ['pv_usr', 't1', 'table', 'SELECT'], {
          maintenance_db: 'pv_db',
        }),
      ).toBe(false);
      expect(
        await call('postgres.privileges_grant', ['pv_usr', 'pv_grp', 'group'], { grant_option: true }),
      ).toBe(true);
      expect(await call('postgres.privileges_list', ['pv_grp', 'group'])).toEqual({ pv_usr: true });
      expect(await call('postgres.privileges_revoke', ['pv_usr', 'pv_grp', 'group'])).toBe(true);
      expect(await call('postgres.privileges_list', ['pv_grp', 'group'])).toEqual({});
    });

    it('refuses a bad object type or privilege with SALT_ERR_INVOCATION, as Salt does', async () => {
      await expect(call('postgres.privileges_list', ['t1', 'view'])).rejects.toMatchObject({
        code: 'SALT_ERR_INVOCATION',
        message: 'Invalid object_type: view provided',
      });
      await expect(
        call('postgres.has_privileges', ['pv_usr', 't1', 'table', 'EXECUTE']),
      ).rejects.toMatchObject({
        message: 'Invalid privilege(s): EXECUTE provided for object table',
      });
      await expect(
        call('postgres.privileges_grant', ['pv_usr', 'pv_grp', 'group', 'SELECT']),
      ).rejects.toMatchObject({
        message: 'The privileges option should not be set for object_type group',
      });
      await expect(
        call('postgres.privileges_grant', ['pv"usr', 't1', 'table', 'SELECT']),
      ).rejects.toMatchObject({
        code: 'SALT_ERR_INVOCATION',
      });
    });

    it('postgres_privileges.present/absent on every object type: predict, apply, find nothing to do', async () => {
      const objects: Array<[string, Record<string, unknown>]> = [
        ['SELECT,INSERT', { object_name: 't1', object_type: 'table', privileges: ['SELECT', 'INSERT'] }],
        ['SELECT', { object_name: 'ALL', object_type: 'table', prepend: 'sch', privileges: ['SELECT'] }],
        ['USAGE,SELECT', { object_name: 's1', object_type: 'sequence', privileges: ['USAGE', 'SELECT'] }],
        ['USAGE', { object_name: 'sch', object_type: 'schema', privileges: ['USAGE'] }],
        [
          'CONNECT,TEMPORARY',
          { object_name: 'pv_db', object_type: 'database', privileges: ['CONNECT', 'TEMPORARY'] },
        ],
        ['EXECUTE', { object_name: 'f1(integer)', object_type: 'function', privileges: ['EXECUTE'] }],
        ['USAGE', { object_name: 'sql', object_type: 'language', privileges: ['USAGE'] }],
        ['pv_grp', { object_name: 'pv_grp', object_type: 'group' }],
      ];
      for (const [privs, o] of objects) {
        const kw = { name: 'pv_usr', ...o };
        expect(await st('present', kw, true)).toEqual({
          name: 'pv_usr',
          changes: {},
          result: null,
          comment: `The privilege(s): ${privs} are set to be granted to pv_usr`,
        });
        expect(await st('present', kw)).toEqual({
          name: 'pv_usr',
          changes: { pv_usr: 'Present' },
          result: true,
          comment: `The privilege(s): ${privs} have been granted to pv_usr`,
        });
        // Salt's has_privileges finds nothing for object_name ALL: it grants again every run
        if (o.object_name !== 'ALL')
          expect(await st('present', kw)).toMatchObject({
            changes: {},
            comment: 'The requested privilege(s) are already set',
          });
      }
      expect(
        await call('postgres.has_privileges', ['pv_usr', 't3', 'table', 'SELECT'], {
          prepend: 'sch',
          maintenance_db: 'pv_db',
        }),
      ).toBe(true);
      for (const [privs, o] of objects) {
        if (o.object_name === 'ALL') continue;
        const kw = { name: 'pv_usr', ...o };
        expect(await st('absent', kw, true)).toMatchObject({
          result: null,
          comment: `The privilege(s): ${privs} are set to be revoked from pv_usr`,
        });
        expect(await st('absent', kw)).toEqual({
          name: 'pv_usr',
          changes: { pv_usr: 'Absent' },
          result: true,
          comment: `The privilege(s): ${privs} have been revoked from pv_usr`,
        });
        expect(await st('absent', kw)).toMatchObject({
          changes: {},
          comment: 'The requested privilege(s) are not set so cannot be revoked',
        });
      }
      expect(JSON.stringify(log.lines)).not.toContain('pv-conn-s3cret');
    });
  },
);
