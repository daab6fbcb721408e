import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../kernel/config/index.js';
import { gatherReturnerOptions } from '../kernel/jobs/returner-options.js';
import { returnerBlockOptions } from './option-blocks.js';

describe('the built-in returners option blocks', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tsalt-returner-blocks-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('load without an unknown-option warning and reach their returner; a misspelt block still warns', async () => {
    writeFileSync(
      join(dir, 'master'),
      [
        'postgres: {host: db1, user: salt, pass: secret, db: salt}',
        'postgres.port: 5433',
        'redis: {host: r1, db: 2}',
        'postgress: {host: db2}',
        '',
      ].join('\n'),
    );
    const { config, warnings } = await loadConfig('master', dir);
    expect(warnings).toEqual([expect.stringContaining('unknown option "postgress"')]);
    expect(gatherReturnerOptions('postgres', config)).toEqual({
      host: 'db1',
      user: 'salt',
      pass: 'secret',
      db: 'salt',
      port: 5433,
    });
    expect(gatherReturnerOptions('redis', config)).toEqual({ host: 'r1', db: 2 });
    expect(returnerBlockOptions.read(config).redis).toEqual({ host: 'r1', db: 2 });
  });
});
