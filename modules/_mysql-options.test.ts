import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { moduleCtx } from '../states/_test-ctx.js';
import { connectionConfig, readOptionFile } from './_mysql-conn.js';
import { mysqlModuleOptions, mysqlOption } from './_mysql-options.js';
import configMod from './config.js';

const ctxWith = (opts: Record<string, unknown>, pillar: Record<string, unknown> = {}) =>
  moduleCtx([configMod], { opts: { ...opts, pillar } });

describe('the mysql.* options and connection keywords', () => {
  it('are declared for the minion, so docs/config.md lists them', () => {
    const docs = readFileSync(new URL('../docs/config.md', import.meta.url), 'utf8');
    for (const key of Object.keys(mysqlModuleOptions.shape)) expect(docs).toContain(`| \`${key}\``);
    expect(Object.keys(mysqlModuleOptions.shape)).toEqual(
      ['host', 'port', 'user', 'pass', 'db', 'unix_socket', 'charset', 'default_file'].map(
        (k) => `mysql.${k}`,
      ),
    );
  });

  it('are read as config.option finds them (config, then pillar), coerced, and checked', async () => {
    const ctx = ctxWith({ 'mysql.port': '3307', 'mysql.user': 5 }, { 'mysql.host': 'db1' });
    expect(await mysqlOption(ctx, 'port')).toBe(3307);
    expect(await mysqlOption(ctx, 'user')).toBe('5');
    expect(await mysqlOption(ctx, 'host')).toBe('db1');
    expect(await mysqlOption(ctx, 'pass')).toBeNull();
    await expect(mysqlOption(ctxWith({ 'mysql.port': 'x' }), 'port')).rejects.toMatchObject({
      code: 'SALT_ERR_CONFIG_INVALID',
    });
    const err = await mysqlOption(ctxWith({ 'mysql.pass': ['hunter2-secret'] }), 'pass').catch(
      (e: Error) => e,
    );
    expect(err).toMatchObject({ code: 'SALT_ERR_CONFIG_INVALID' });
    expect(String((err as Error).message)).not.toContain('hunter2');
  });

  it("gathers a connection as Salt's _connect: keywords over options, a default file under both", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tsalt-mycnf-'));
    try {
      const file = join(dir, 'my.cnf');
      writeFileSync(
        file,
        '[mysqld]\nport = 1\n[client]\nhost = filehost\nuser = fileuser\npassword = "file pw"\nsocket = /run/x.sock\n[extra]\ndatabase = d1\n',
      );
      expect(readOptionFile(file, 'extra')).toEqual({
        host: 'filehost',
        user: 'fileuser',
        password: 'file pw',
        socket: '/run/x.sock',
        database: 'd1',
      });
      const ctx = ctxWith({ 'mysql.host': 'opthost', 'mysql.pass': 'optpw', 'mysql.charset': 'utf8mb4' });
      expect(await connectionConfig(ctx, { connection_user: 'kw', connection_port: '3310' })).toMatchObject({
        host: 'opthost',
        user: 'kw',
        port: 3310,
        password: 'optpw',
        charset: 'utf8mb4',
        multipleStatements: false,
      });
      // a default file given to the call: no mysql.* option but the charset is read
      const cfg = await connectionConfig(ctx, {
        connection_default_file: file,
        client_flags: ['multi_statements'],
      });
      expect(cfg).toMatchObject({
        host: 'filehost',
        user: 'fileuser',
        password: 'file pw',
        socketPath: '/run/x.sock',
        charset: 'utf8mb4',
        multipleStatements: true,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
