import { describe, expect, it } from 'vitest';
import {
  ALL_PRIVILEGES,
  grantGenerate,
  grantNormalize,
  grantToTokens,
  resolveGrantAliases,
  shlexTokens,
} from './_mysql-grants.js';

// Expectations: Salt 3006.18's `_grant_to_tokens`, `__grant_generate` and `__grant_normalize`
// called on the same input (python3 -c with salt.modules.mysql on the path).
describe("Salt's grant handling", () => {
  it('tokenizes SHOW GRANTS lines as Salt does: quoted names with backquotes, odd users, column lists', () => {
    expect(
      grantToTokens(
        "GRANT SELECT, LOCK TABLES, UPDATE, CREATE ON `test ``(:=saltdb)`.* TO 'foo'@'localhost' WITH GRANT OPTION",
      ),
    ).toEqual({
      user: 'foo',
      host: 'localhost',
      grant: ['SELECT', 'LOCK TABLES', 'UPDATE', 'CREATE'],
      database: '`test ``(:=saltdb)`.*',
    });
    expect(grantToTokens(`GRANT USAGE ON *.* TO 'user ";--,?:&/\\'@'localhost'`)).toEqual({
      user: 'user ";--,?:&/\\',
      host: 'localhost',
      grant: ['USAGE'],
      database: '*.*',
    });
    expect(grantToTokens("GRANT SELECT (id, name), UPDATE (name) ON `d`.`t` TO 'u'@'%'")).toEqual({
      user: 'u',
      host: '%',
      grant: ['SELECT', 'SELECT.id', 'SELECT.name', 'UPDATE', 'UPDATE.name'],
      database: '`d`.`t`',
    });
    expect(grantToTokens('GRANT SELECT, INSERT ON `t14\\_db`.* TO `t14_user`@`localhost`')).toMatchObject({
      user: '`t14_user`',
      host: '`localhost`',
      database: '`t14\\_db`.*',
    });
  });

  it("splits like Python's non-POSIX shlex, and refuses an unclosed quote", () => {
    expect(shlexTokens("a`b c`d 'e f'g,h")).toEqual(['a`b', 'c`d', "'e f'", 'g', ',', 'h']);
    expect(() => shlexTokens("GRANT 'x")).toThrow('No closing quotation');
  });

  it('generates the GRANT Salt sends: db-level names escaped for LIKE, table-level not', () => {
    expect(grantGenerate('select, insert', 'my_db.*', 'u', 'localhost', true, true)).toEqual({
      qry: 'GRANT SELECT, INSERT ON `my\\_db`.* TO %(user)s@%(host)s WITH GRANT OPTION',
      args: { user: 'u', host: 'localhost' },
    });
    expect(grantGenerate('select', 'my_db.tb_l', 'u', 'h', false, true).qry).toBe(
      'GRANT SELECT ON `my_db`.`tb_l` TO %(user)s@%(host)s',
    );
    expect(grantToTokens(grantGenerate('select, insert', 'my_db.*', 'u', 'localhost', true, true))).toEqual({
      user: 'u',
      host: 'localhost',
      grant: ['SELECT', 'INSERT'],
      database: '`my\\_db`.*',
    });
    expect(
      grantGenerate('select', 'd.*', 'u', 'h', false, true, [{ SSL: true }, { cipher: "AES'256" }]).qry,
    ).toBe("GRANT SELECT ON `d`.* TO %(user)s@%(host)s REQUIRE SSL AND CIPHER 'AES256'");
  });

  it("refuses an unknown privilege with Salt's text, and anything that would break out of the statement", () => {
    expect(grantNormalize('all')).toBe('ALL PRIVILEGES');
    expect(grantNormalize('SELECT (id, `name`), UPDATE')).toBe('SELECT (id, `name`), UPDATE');
    expect(() => grantNormalize('BOGUS')).toThrow("Invalid grant : 'BOGUS'");
    expect(() => grantNormalize('SELECT (id); DROP DATABASE x')).toThrow(
      "Invalid grant : ' DROP DATABASE x'",
    );
    // Salt accepts these and pastes them into the GRANT
    for (const bad of ['SELECT (id, name`; DROP)', "SELECT (id`, 'x')", 'SELECT; DELETE'])
      expect(() => grantNormalize(bad)).toThrow(
        expect.objectContaining({ code: 'SALT_ERR_MYSQL_IDENTIFIER' }),
      );
    expect(() => grantGenerate('SELECT', 'd`; DROP DATABASE d; --.*', 'u', 'h', false, false)).toThrow(
      expect.objectContaining({ code: 'SALT_ERR_MYSQL_IDENTIFIER' }),
    );
    expect(grantGenerate('SELECT', 'my_db.*', 'u', 'h', false, false).qry).toBe(
      'GRANT SELECT ON my_db.* TO %(user)s@%(host)s',
    );
    expect(() => grantGenerate('SELECT', 'd.*', 'u', 'h', false, true, [{ subject: 'x\\' }])).toThrow(
      expect.objectContaining({ code: 'SALT_ERR_MYSQL_IDENTIFIER' }),
    );
  });

  it("knows MariaDB's privilege aliases by version, and MySQL 8's list for ALL", () => {
    const grants = ['REPLICATION REPLICA', 'REPLICATION CLIENT', 'REPLICA MONITOR', 'SELECT'];
    expect(resolveGrantAliases(grants, '10.11.19-MariaDB-0+deb12u1')).toEqual([
      'REPLICATION SLAVE',
      'BINLOG MONITOR',
      'SLAVE MONITOR',
      'SELECT',
    ]);
    expect(resolveGrantAliases(grants, '10.5.2-MariaDB')).toEqual([
      'REPLICATION SLAVE',
      'BINLOG MONITOR',
      'REPLICA MONITOR',
      'SELECT',
    ]);
    expect(resolveGrantAliases(grants, '8.0.36')).toEqual(grants);
    expect(ALL_PRIVILEGES).toHaveLength(43);
    expect(ALL_PRIVILEGES.slice(0, 5)).toEqual([
      'ALTER',
      'ALTER ROUTINE',
      'BACKUP_ADMIN',
      'BINLOG_ADMIN',
      'CONNECTION_ADMIN',
    ]);
    expect(ALL_PRIVILEGES).toContain('XA_RECOVER_ADMIN');
    expect(ALL_PRIVILEGES).not.toContain('USAGE');
  });
});
