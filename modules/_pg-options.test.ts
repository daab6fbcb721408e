import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { moduleCtx } from '../states/_test-ctx.js';
import { pgOption, postgresModuleOptions } from './_pg-options.js';
import configMod from './config.js';

const ctxWith = (opts: Record<string, unknown>, pillar: Record<string, unknown> = {}) =>
  moduleCtx([configMod], { opts: { ...opts, pillar } });

describe('the postgres.* options', () => {
  it('are declared for the minion, so docs/config.md lists them', () => {
    const docs = readFileSync(new URL('../docs/config.md', import.meta.url), 'utf8');
    for (const key of Object.keys(postgresModuleOptions.shape)) expect(docs).toContain(`| \`${key}\``);
    expect(Object.keys(postgresModuleOptions.shape)).toEqual(
      ['user', 'host', 'port', 'pass', 'maintenance_db', 'bins_dir', 'timeout'].map((k) => `postgres.${k}`),
    );
    expect(postgresModuleOptions.daemons).toEqual(['minion']);
  });

  it('are read as config.option finds them, coerced and typed, defaults when unset', async () => {
    const ctx = ctxWith({ 'postgres.port': '5433', 'postgres.user': 5 }, { 'postgres.host': 'db1' });
    expect(await pgOption(ctx, 'port')).toBe(5433);
    expect(await pgOption(ctx, 'user')).toBe('5');
    expect(await pgOption(ctx, 'host')).toBe('db1');
    expect(await pgOption(ctx, 'pass')).toBeNull();
    expect(await pgOption(ctx, 'timeout')).toBe(0);
    expect(await pgOption(ctxWith({ 'postgres.timeout': '2.5' }), 'timeout')).toBe(2.5);
  });

  it('refuse a bad value with SALT_ERR_CONFIG_INVALID naming the option; a password is never shown', async () => {
    await expect(pgOption(ctxWith({ 'postgres.port': 'fivefourthreetwo' }), 'port')).rejects.toMatchObject({
      code: 'SALT_ERR_CONFIG_INVALID',
      message: expect.stringMatching(/postgres\.port"\]: expected a port number from 1 to 65535/),
    });
    await expect(pgOption(ctxWith({ 'postgres.port': 70000 }), 'port')).rejects.toMatchObject({
      code: 'SALT_ERR_CONFIG_INVALID',
    });
    const err = await pgOption(ctxWith({ 'postgres.pass': ['hunter2-secret'] }), 'pass').catch(
      (e: Error) => e,
    );
    expect(err).toMatchObject({ code: 'SALT_ERR_CONFIG_INVALID' });
    expect(String((err as Error).message)).toContain('postgres.pass');
    expect(String((err as Error).message)).not.toContain('hunter2');
    expect(await pgOption(ctxWith({ 'postgres.pass': 'x"y' }), 'pass')).toBe('x"y');
  });
});
