/**
 * The mysql module and states through a real master and minion: an SLS with a database, a user
 * (its password from pillar) and a grant, applied in test mode, for real and again (nothing left
 * to do), against a private MariaDB (modules/_mysql-test-server.ts) that the minion reaches
 * through the mysql.* options of its config. Expected comments are Salt 3006.18's. Neither the
 * admin password (mysql.pass) nor the user's shows in the daemons' output.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MariadbTestServer, SKIP_DB_TESTS, startMariadb } from '../../modules/_mysql-test-server.js';
import { Cluster } from '../../tools/local-cluster.js';

type Entry = { result: boolean | null; comment: string; changes: Record<string, unknown> };
const USER_PW = 'It-sp4ce-Pw-31';

describe.skipIf(SKIP_DB_TESTS)('mysql states through real daemons', () => {
  let server: MariadbTestServer;
  const master: Record<string, unknown> = {};
  const c = new Cluster({ master });
  const srv = join(c.root, 'srv', 'salt');
  const pillar = join(c.root, 'srv', 'pillar');

  beforeAll(async () => {
    server = await startMariadb();
    mkdirSync(srv, { recursive: true });
    mkdirSync(pillar, { recursive: true });
    writeFileSync(join(pillar, 'top.sls'), "base:\n  '*':\n    - app\n");
    writeFileSync(join(pillar, 'app.sls'), `app_db_password: ${USER_PW}\n`);
    writeFileSync(
      join(srv, 'appdb.sls'),
      [
        'appdb:',
        '  mysql_database.present:',
        '    - character_set: utf8mb4',
        '    - collate: utf8mb4_bin',
        'appuser:',
        '  mysql_user.present:',
        '    - host: localhost',
        "    - password: {{ pillar['app_db_password'] }}",
        'appgrant:',
        '  mysql_grants.present:',
        '    - grant: select,insert,update',
        '    - database: appdb.*',
        '    - user: appuser',
        '    - require:',
        '      - mysql_database: appdb',
        '      - mysql_user: appuser',
        'oldapp:',
        '  mysql_database.absent: []',
        '',
      ].join('\n'),
    );
    master.file_roots = { base: [srv] };
    master.pillar_roots = { base: [pillar] };
    await c.startMaster();
    await c.startMinion('m1', {
      'mysql.host': server.host,
      'mysql.port': server.port,
      'mysql.user': server.user,
      'mysql.pass': server.password,
    });
  }, 180_000);
  afterAll(async () => {
    await c.stop();
    await server?.destroy();
  });

  const apply = async (...extra: string[]) => {
    const r = await c.saltJson(['m1', 'state.apply', 'appdb', ...extra, '-t', '120']);
    const ret = r.data.m1 as Record<string, Entry>;
    const pick = (mod: string, id: string, fn: string) => {
      const e = ret[`${mod}_|-${id}_|-${id}_|-${fn}`];
      return e && { result: e.result, comment: e.comment, changes: e.changes };
    };
    return {
      db: pick('mysql_database', 'appdb', 'present'),
      user: pick('mysql_user', 'appuser', 'present'),
      grant: pick('mysql_grants', 'appgrant', 'present'),
      old: pick('mysql_database', 'oldapp', 'absent'),
    };
  };

  it('applies in test mode, for real, then finds nothing to do', async () => {
    expect(await apply('test=True')).toEqual({
      db: { result: null, comment: 'Database appdb is not present and needs to be created', changes: {} },
      user: { result: null, comment: 'User appuser@localhost is set to be added', changes: {} },
      grant: { result: null, comment: 'MySQL grant appgrant is set to be created', changes: {} },
      old: { result: true, comment: 'Database oldapp is not present, so it cannot be removed', changes: {} },
    });
    expect(await apply()).toEqual({
      db: { result: true, comment: 'The database appdb has been created', changes: { appdb: 'Present' } },
      user: {
        result: true,
        comment: 'The user appuser@localhost has been added',
        changes: { appuser: 'Present' },
      },
      grant: {
        result: true,
        comment: 'Grant select,insert,update on appdb.* to appuser@localhost has been added',
        changes: { appgrant: 'Present' },
      },
      old: { result: true, comment: 'Database oldapp is not present, so it cannot be removed', changes: {} },
    });
    expect(await apply()).toEqual({
      db: { result: true, comment: 'Database appdb is already present', changes: {} },
      user: {
        result: true,
        comment: 'User appuser@localhost is already present with the desired password',
        changes: {},
      },
      grant: {
        result: true,
        comment: 'Grant select,insert,update on appdb.* to appuser@localhost is already present',
        changes: {},
      },
      old: { result: true, comment: 'Database oldapp is not present, so it cannot be removed', changes: {} },
    });
    expect(server.sql("SHOW GRANTS FOR 'appuser'@'localhost'")).toContain(
      'GRANT SELECT, INSERT, UPDATE ON `appdb`.* TO `appuser`@`localhost`',
    );
    const got = await c.saltJson(['m1', 'mysql.db_get', 'appdb']);
    expect(got.data.m1).toEqual({ character_set: 'utf8mb4', collate: 'utf8mb4_bin' });
    const out = `${c.master?.out ?? ''}${c.minions.get('m1')?.out ?? ''}`;
    expect(out).not.toContain(server.password);
    expect(out).not.toContain(USER_PW);
  }, 300_000);
});
