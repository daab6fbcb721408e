import { describe, expect, it } from 'vitest';
import { returnerContext } from '../../kernel/jobs/returner-options.js';
import { silentLogger } from '../../kernel/log.js';
import postgres from './index.js';
import { postgresOptions } from './options.js';

describe('postgres options', () => {
  it("defaults as Salt's pgjsonb", () => {
    expect(postgresOptions.parse({})).toMatchObject({
      host: 'localhost',
      port: 5432,
      user: 'salt',
      pass: 'salt',
      password: 'salt',
      db: 'salt',
      connect_timeout: 2.5,
      buffer_size: 10_000,
    });
  });

  it("reads Salt's flat keys, passwd as an alias, and refuses bad values naming the returner", () => {
    const ctx = returnerContext(
      postgres,
      { 'returner.postgres.host': 'db1', 'postgres.port': '5433', 'postgres.passwd': 'x' },
      silentLogger(),
    );
    expect(ctx.options).toMatchObject({ host: 'db1', port: 5433, password: 'x' });
    expect(() => returnerContext(postgres, { postgres: { sslmode: 'sometimes' } }, silentLogger())).toThrow(
      /invalid options for returner "postgres": sslmode/,
    );
  });
});
