import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryLogger } from '../modules/_fake-ctx.js';
import { type MariadbTestServer, SKIP_DB_TESTS, startMariadb } from '../modules/_mysql-test-server.js';
import { mysqlPasswordHash } from '../modules/_mysql-users.js';
import configMod from '../modules/config.js';
import mysqlMod from '../modules/mysql.js';
import type { StateModuleDef } from '../plugins/states/index.js';
import { moduleCtx, runState } from './_test-ctx.js';
import mysqlDatabase from './mysql_database.js';
import mysqlGrants from './mysql_grants.js';
import mysqlQuery from './mysql_query.js';
import mysqlUser from './mysql_user.js';

// A private MariaDB (modules/_mysql-test-server.ts) reached through the mysql.* options, as a
// minion config gives them. Expected returns and comments: Salt 3006.18's for the same steps
// against the same kind of server (salt-call --local, pymysql).
describe.skipIf(SKIP_DB_TESTS)('mysql module and mysql_* states (real server)', () => {
  let server: MariadbTestServer;
  const log = memoryLogger();
  let opts: Record<string, unknown>;
  let tmp: string;
  const cache = new Map<string, unknown>();
  // each call is a job of its own, as each salt-call is (the last MySQL error is per job)
  let jobs = 0;
  const job = () => {
    jobs += 1;
    return moduleCtx([mysqlMod, configMod], {
      opts,
      log,
      cache,
      jid: `2026112800000000${String(jobs).padStart(4, '0')}`,
    });
  };
  const call = (fun: string, args: unknown[] = [], kw: Record<string, unknown> = {}) =>
    job().call(fun, args, kw);
  const st = (mod: StateModuleDef, fn: string, kw: Record<string, unknown>, test = false) =>
    runState(mod, fn, kw, { ctx: job(), test });

  beforeAll(async () => {
    server = await startMariadb();
    tmp = mkdtempSync(join(tmpdir(), 'tsalt-mysql-test-'));
    opts = {
      'mysql.host': server.host,
      'mysql.port': server.port,
      'mysql.user': server.user,
      'mysql.pass': server.password,
    };
  }, 120_000);
  afterAll(async () => {
    await server?.destroy();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('reads the server, runs queries, creates and drops databases', async () => {
    expect(await call('mysql.version')).toMatch(/^\d+\.\d+\.\d+-MariaDB/);
    expect(await call('mysql.status')).toMatchObject({ Uptime: expect.stringMatching(/^\d+$/) });
    expect(await call('mysql.db_list')).toEqual(['information_schema', 'mysql', 'performance_schema', 'sys']);
    expect(await call('mysql.db_create', ['t_db', 'utf8mb4', 'utf8mb4_bin'])).toBe(true);
    expect(await call('mysql.db_create', ['t_db'])).toBe(false);
    expect(await call('mysql.db_get', ['t_db'])).toEqual({
      character_set: 'utf8mb4',
      collate: 'utf8mb4_bin',
    });
    expect(await call('mysql.db_tables', ['t_db'])).toEqual([]);
    expect(await call('mysql.db_tables', ['t_nodb'])).toBe(false);
    const made = await call('mysql.query', [
      't_db',
      'CREATE TABLE t1 (id int primary key, name varchar(9), n decimal(6,2))',
    ]);
    expect(made).toEqual({ 'query time': expect.anything(), 'rows affected': 0 });
    expect(
      await call('mysql.query', ['t_db', "INSERT INTO t1 VALUES (1,'a',1.5),(2,'b',NULL)"]),
    ).toMatchObject({
      'rows affected': 2,
    });
    expect(await call('mysql.query', ['t_db', 'SELECT * FROM t1 ORDER BY id'])).toEqual({
      'query time': { human: expect.stringMatching(/^\d+(\.\d)?ms$/), raw: expect.stringMatching(/^\d/) },
      'rows returned': 2,
      columns: ['id', 'name', 'n'],
      results: [
        ['1', 'a', '1.50'],
        ['2', 'b', null],
      ],
    });
    expect(await call('mysql.db_tables', ['t_db'])).toEqual(['t1']);
    expect(await call('mysql.query', ['t_nodb', 'SELECT 1'])).toEqual({});
    // Salt lets PyMySQL's ProgrammingError out of mysql.query
    await expect(call('mysql.query', ['t_db', 'selec 1'])).rejects.toMatchObject({
      name: 'ProgrammingError',
    });
    expect(await call('mysql.db_remove', ['mysql'])).toBe(false);
    expect(await call('mysql.db_remove', ['t_db'])).toBe(true);
    expect(await call('mysql.db_remove', ['t_db'])).toBe(false);
  });

  it('mysql_database: predicts, creates, finds it present, changes its charset, removes it', async () => {
    expect(await st(mysqlDatabase, 'present', { name: 's_db' }, true)).toEqual({
      name: 's_db',
      changes: {},
      result: null,
      comment: 'Database s_db is not present and needs to be created',
    });
    expect(await st(mysqlDatabase, 'present', { name: 's_db' })).toEqual({
      name: 's_db',
      changes: { s_db: 'Present' },
      result: true,
      comment: 'The database s_db has been created',
    });
    expect(await st(mysqlDatabase, 'present', { name: 's_db' })).toMatchObject({
      result: true,
      comment: 'Database s_db is already present',
      changes: {},
    });
    expect(
      await st(mysqlDatabase, 'present', { name: 's_db', character_set: 'utf8mb4' }, true),
    ).toMatchObject({
      result: null,
      comment:
        'Database character set utf8mb4 != latin1 needs to be updated\nDatabase s_db is going to be updated',
    });
    expect(
      await st(mysqlDatabase, 'present', {
        name: 's_db',
        character_set: 'utf8mb4',
        collate: 'utf8mb4_bin',
      }),
    ).toEqual({
      name: 's_db',
      result: true,
      comment:
        'Database character set utf8mb4 != latin1 needs to be updated\nDatabase collate utf8mb4_bin != latin1_swedish_ci needs to be updated',
      changes: {
        collate: { before: 'latin1_swedish_ci', now: 'utf8mb4_bin' },
        character_set: { before: 'latin1', now: 'utf8mb4' },
      },
    });
    expect(await st(mysqlDatabase, 'absent', { name: 's_db' }, true)).toMatchObject({
      result: null,
      comment: 'Database s_db is present and needs to be removed',
    });
    expect(await st(mysqlDatabase, 'absent', { name: 's_db' })).toEqual({
      name: 's_db',
      changes: { s_db: 'Absent' },
      result: true,
      comment: 'Database s_db has been removed',
    });
    expect(await st(mysqlDatabase, 'absent', { name: 's_db' })).toMatchObject({
      result: true,
      comment: 'Database s_db is not present, so it cannot be removed',
    });
  });

  it('mysql_user and mysql_grants: passwords set, changed and checked by the server, grants added and revoked', async () => {
    await call('mysql.db_create', ['g_db']);
    const u = { name: 'g_user', host: 'localhost' };
    expect(await st(mysqlUser, 'present', { ...u, password: 'pw1' }, true)).toMatchObject({
      result: null,
      comment: 'User g_user@localhost is set to be added',
    });
    expect(await st(mysqlUser, 'present', { ...u, password: 'pw1' })).toEqual({
      name: 'g_user',
      changes: { g_user: 'Present' },
      result: true,
      comment: 'The user g_user@localhost has been added',
    });
    expect(await st(mysqlUser, 'present', { ...u, password: 'pw1' })).toMatchObject({
      result: true,
      comment: 'User g_user@localhost is already present with the desired password',
    });
    expect(await call('mysql.user_exists', ['g_user', 'localhost'], { password: 'wrong' })).toBe(false);
    expect(await st(mysqlUser, 'present', { ...u, password: 'pw2' }, true)).toMatchObject({
      result: null,
      comment: 'Password for user g_user@localhost is set to be changed',
    });
    expect(await st(mysqlUser, 'present', { ...u, password: 'pw2' })).toEqual({
      name: 'g_user',
      changes: { g_user: 'Updated' },
      result: true,
      comment: 'Password for user g_user@localhost has been changed',
    });
    const hash = mysqlPasswordHash('pw3');
    expect(hash).toBe(server.sql("SELECT PASSWORD('pw3')").trim());
    expect(await call('mysql.user_chpass', ['g_user', 'localhost'], { password_hash: hash })).toBe(true);
    expect(await st(mysqlUser, 'present', { ...u, password_hash: hash })).toMatchObject({
      comment: 'User g_user@localhost is already present with the desired password hash',
    });
    expect(await st(mysqlUser, 'present', { name: 'g_nopw' })).toMatchObject({
      result: false,
      comment: 'Either password or password_hash must be specified, unless allow_passwordless is True',
    });
    expect(await st(mysqlUser, 'present', { name: 'g_open', allow_passwordless: true })).toMatchObject({
      result: true,
      comment: 'The user g_open@localhost has been added with passwordless login',
    });

    const g = { name: 'g1', grant: 'select,insert', database: 'g_db.*', user: 'g_user' };
    expect(await st(mysqlGrants, 'present', g, true)).toMatchObject({
      result: null,
      comment: 'MySQL grant g1 is set to be created',
    });
    expect(await st(mysqlGrants, 'present', g)).toEqual({
      name: 'g1',
      changes: { g1: 'Present' },
      result: true,
      comment: 'Grant select,insert on g_db.* to g_user@localhost has been added',
    });
    expect(await st(mysqlGrants, 'present', g)).toMatchObject({
      result: true,
      comment: 'Grant select,insert on g_db.* to g_user@localhost is already present',
    });
    expect(await call('mysql.grant_add', ['SELECT (id)', 'g_db.t', 'g_user'])).toBe(false);
    expect(await call('mysql.user_grants', ['g_user', 'localhost'])).toEqual([
      'GRANT USAGE ON *.* TO `g_user`@`localhost`',
      'GRANT SELECT, INSERT ON `g\\_db`.* TO `g_user`@`localhost`',
    ]);
    expect(await call('mysql.grant_add', ['BOGUS', 'g_db.*', 'g_user'])).toBe(false);
    await expect(call('mysql.grant_add', ['SELECT (id`; x)', 'g_db.*', 'g_user'])).rejects.toMatchObject({
      code: 'SALT_ERR_MYSQL_IDENTIFIER',
    });
    await expect(
      call('mysql.grant_exists', ['SELECT', 'g_db`; DROP DATABASE g_db; --.*', 'g_user'], { escape: false }),
    ).rejects.toMatchObject({ code: 'SALT_ERR_MYSQL_IDENTIFIER' });
    expect(await call('mysql.db_exists', ['g_db'])).toBe(true);
    expect(
      await st(mysqlGrants, 'present', {
        name: 'g2',
        grant: 'all',
        database: 'g_db.*',
        user: 'g_open',
        grant_option: true,
      }),
    ).toMatchObject({ result: true, changes: { g2: 'Present' } });
    expect(await call('mysql.grant_exists', ['ALL', 'g_db.*', 'g_open', 'localhost', true])).toBe(true);
    expect(await st(mysqlGrants, 'absent', g, true)).toMatchObject({
      result: null,
      comment: 'MySQL grant g1 is set to be revoked',
    });
    expect(await st(mysqlGrants, 'absent', g)).toEqual({
      name: 'g1',
      changes: { g1: 'Absent' },
      result: true,
      comment: 'Grant select,insert on g_db.* for g_user@localhost has been revoked',
    });
    expect(await st(mysqlGrants, 'absent', g)).toMatchObject({
      comment: 'Grant select,insert on g_db.* to g_user@localhost is not present, so it cannot be revoked',
    });

    expect(await st(mysqlUser, 'absent', u, true)).toMatchObject({
      result: null,
      comment: 'User g_user@localhost is set to be removed',
    });
    expect(await st(mysqlUser, 'absent', u)).toEqual({
      name: 'g_user',
      changes: { g_user: 'Absent' },
      result: true,
      comment: 'User g_user@localhost has been removed',
    });
    expect(await st(mysqlUser, 'absent', u)).toMatchObject({
      comment: 'User g_user@localhost is not present, so it cannot be removed',
    });
    expect(await call('mysql.user_remove', ['g_open'])).toBe(true);
    expect(await call('mysql.db_remove', ['g_db'])).toBe(true);
  });

  it('mysql_query.run: test mode, a missing database, results to a file, no rerun with overwrite False', async () => {
    await call('mysql.db_create', ['q_db']);
    await call('mysql.query', ['q_db', "CREATE TABLE t (name varchar(9)); INSERT INTO t VALUES ('a')"], {
      client_flags: ['multi_statements'],
    });
    expect(await call('mysql.query', ['q_db', 'SELECT name FROM t'])).toMatchObject({ results: [['a']] });
    const q = { name: 'q1', database: 'q_db', query: 'SELECT name FROM t' };
    expect(await st(mysqlQuery, 'run', q, true)).toMatchObject({
      result: null,
      comment: 'Query would execute, not storing result',
    });
    expect(await st(mysqlQuery, 'run', { ...q, database: 'q_nodb' })).toMatchObject({
      result: null,
      comment: 'Database q1 is not present',
    });
    const out = join(tmp, 'out.txt');
    const ran = await st(mysqlQuery, 'run', { ...q, output: out });
    expect(ran).toMatchObject({ result: true, changes: { query: `Executed. Output into ${out}` } });
    expect(String(ran.comment)).toMatch(
      /^\{'query time': \{'human': '[\d.]+ms', 'raw': '[\d.e-]+'\}, 'rows returned': 1, 'columns': \('name',\), 'results': \[\{'name': 'a'\}\]\}$/,
    );
    expect(readFileSync(out, 'utf8')).toBe('name:a\n');
    expect(await st(mysqlQuery, 'run', { ...q, output: out, overwrite: false })).toMatchObject({
      result: true,
      comment: `No execution needed. File ${out} already set`,
    });
    expect(await call('mysql.db_remove', ['q_db'])).toBe(true);
  });

  it('reports a failed login in the state comment, never the password', async () => {
    const before = log.lines.length;
    const bad = { connection_pass: 'not-the-Secret-77' };
    expect(await call('mysql.version', [], bad)).toBe('');
    expect(await st(mysqlDatabase, 'present', { name: 'x_db', ...bad })).toEqual({
      name: 'x_db',
      changes: {},
      result: false,
      comment: `MySQL Error 1045: Access denied for user '${server.user}'@'127.0.0.1' (using password: YES)`,
    });
    expect(await st(mysqlDatabase, 'present', { name: 'x_db', connection_port: 1 })).toMatchObject({
      result: false,
      comment:
        "MySQL Error 2003: Can't connect to MySQL server on '127.0.0.1' ([Errno 111] Connection refused)",
    });
    const logged = JSON.stringify(log.lines);
    expect(log.lines.length).toBeGreaterThan(before);
    expect(logged).not.toContain(server.password);
    expect(logged).not.toContain('not-the-Secret-77');
    expect(logged).not.toContain('pw1');
  });

  it('loads the mysql2 driver only when a function connects (the built module, in a fresh process)', () => {
    const dist = new URL('../dist/modules/mysql.js', import.meta.url).href;
    const conn = {
      connection_host: server.host,
      connection_port: server.port,
      connection_user: server.user,
      connection_pass: server.password,
    };
    const script = `
      import { createRequire } from 'node:module';
      const req = createRequire(${JSON.stringify(dist)});
      const loaded = () => Object.keys(req.cache).some((k) => k.includes('/node_modules/mysql2/'));
      const mod = (await import(${JSON.stringify(dist)})).default;
      const ctx = { jid: '1', cache: new Map(), call: async () => null, signal: new AbortController().signal,
        log: { trace() {}, debug() {}, info() {}, warn() {}, error() {} } };
      const atImport = loaded();
      const quoted = mod.functions.quote_identifier.run(ctx, { identifier: 'a', for_grants: false });
      const afterQuote = loaded();
      const version = await mod.functions.version.run(ctx, {}, { args: [], kwargs: ${JSON.stringify(conn)} });
      console.log(JSON.stringify({ atImport, quoted, afterQuote, version, afterConnect: loaded() }));
    `;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual({
      atImport: false,
      quoted: '`a`',
      afterQuote: false,
      version: expect.stringMatching(/MariaDB/),
      afterConnect: true,
    });
  });
});
