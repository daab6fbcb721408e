import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PostgresTestServer, SKIP_DB_TESTS, startPostgres } from '../../../tools/db-servers.js';
import { type CompileEnv, compilePillar, type PillarRequest } from '../compile.js';
import { pillarOptions } from '../options.js';
import { BUILTIN_EXT_PILLARS } from './builtins.js';

// Expected shapes: Salt 3006.18's SqlBaseExtPillar.fetch run on the same rows.
describe.skipIf(SKIP_DB_TESTS)('postgres ext_pillar (real server)', () => {
  let server: PostgresTestServer;
  const errors: string[] = [];
  const env = (extPillar: unknown, postgres?: Record<string, unknown>): CompileEnv => ({
    options: pillarOptions({
      pillar_roots: { base: [] },
      ext_pillar: extPillar,
      postgres: postgres ?? {
        host: server.host,
        port: server.port,
        user: server.user,
        pass: server.password,
        db: server.db,
      },
    }),
    extPillars: new Map(BUILTIN_EXT_PILLARS.map((d) => [d.name, d])),
    log: {
      error: (o, m) => errors.push(`${m} ${JSON.stringify(o)}`),
      warn: () => undefined,
      debug: () => undefined,
    },
  });
  const req = (id: string): PillarRequest => ({
    id,
    grains: {},
    saltenv: null,
    pillarenv: null,
    pillarOverride: {},
    extraMinionData: {},
  });

  beforeAll(async () => {
    server = await startPostgres();
    const c = new pg.Client({
      host: server.host,
      port: server.port,
      user: server.user,
      password: server.password,
      database: server.db,
    });
    await c.connect();
    await c.query(`CREATE TABLE inv (id text, k text, v text);
      INSERT INTO inv VALUES ('alpha','db','host1'), ('alpha','db','host2'), ('alpha','tier','gold'), ('bravo','tier','silver');
      CREATE TABLE svc (ord int, svc text, port text, proto text);
      INSERT INTO svc VALUES (1,'web','80','tcp'), (2,'web','443','tcp'), (3,'dns','53',NULL);`);
    await c.end();
  }, 60_000);
  afterAll(async () => {
    await server?.destroy();
  });

  const inv = 'SELECT id, k, v FROM inv WHERE id = %s ORDER BY v';
  const svc = 'SELECT svc, port, proto FROM svc ORDER BY ord';

  it('a query per minion: its rows nest under their first columns', async () => {
    expect(await compilePillar(req('alpha'), env([{ postgres: [inv] }]))).toEqual({
      alpha: { db: 'host2', tier: 'gold' },
    });
    expect(await compilePillar(req('bravo'), env([{ postgres: [[inv, 2]] }]))).toEqual({
      bravo: { tier: 'silver' },
    });
  });

  it('keyword queries go under their name: depth, as_list with ignore_null, with_lists', async () => {
    const p = await compilePillar(
      req('alpha'),
      env([
        {
          postgres: {
            deep: { query: svc, depth: 2 },
            listed: { query: svc, as_list: true, ignore_null: true },
            wl: { query: svc, depth: 1, with_lists: '1' },
          },
        },
      ]),
    );
    expect(p).toEqual({
      deep: { web: { '80': 'tcp', '443': 'tcp' }, dns: { '53': null } },
      listed: { web: { '80': 'tcp', '443': 'tcp' }, dns: {} },
      wl: { web: ['443', 'tcp'], dns: ['53', null] },
    });
  });

  it('an unreachable database is an _errors entry; the other ext_pillars still merge', async () => {
    const p = await compilePillar(
      req('alpha'),
      env([{ postgres: [inv] }, { cmd_json: `echo '{"still": "here"}'` }], {
        host: '127.0.0.1',
        port: 1,
        user: 'x',
        pass: 'nope-password',
        db: 'x',
      }),
    );
    expect(p.still).toBe('here');
    expect((p._errors as string[])[0]).toMatch(/^Failed to load ext_pillar postgres: /);
    expect(JSON.stringify(p)).not.toContain('nope-password');
  });
});
