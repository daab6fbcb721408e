import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryLogger } from '../modules/_fake-ctx.js';
import { which } from '../modules/_which.js';
import configMod from '../modules/config.js';
import postgresMod from '../modules/postgres.js';
import { SKIP_DB_TESTS, serverUser } from '../tools/db-servers.js';
import { moduleCtx, runState } from './_test-ctx.js';
import pgCluster from './postgres_cluster.js';
import pgInitdb from './postgres_initdb.js';

const BINS = '/usr/lib/postgresql';
const version = existsSync(BINS)
  ? readdirSync(BINS)
      .filter((v) => existsSync(join(BINS, v, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a))[0]
  : undefined;
const binsDir = version === undefined ? undefined : join(BINS, version, 'bin');
const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });

// initdb into throwaway directories (as the postgres system user when root) and, with Debian's
// postgresql-common and root, a throwaway cluster; expectations: Salt 3006.18's returns.
describe.skipIf(SKIP_DB_TESTS || !binsDir)(
  'postgres_initdb and postgres_cluster (real initdb, pg_createcluster)',
  () => {
    const log = memoryLogger();
    const ctx = moduleCtx([postgresMod, configMod], { opts: { 'postgres.bins_dir': binsDir }, log });
    const runas = serverUser() ? 'postgres' : userInfo().username;
    let dir: string;
    const cluster = `tsalt_t13_${process.pid}`;
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'tsalt-initdb-t-'));
      const owner = serverUser();
      if (owner) chownSync(dir, owner.uid, owner.gid);
    });
    afterAll(() => {
      rmSync(dir, { recursive: true, force: true });
      if (which('pg_dropcluster')) spawnSync('pg_dropcluster', ['--stop', String(version), cluster]);
    });

    it('postgres.datadir_init and postgres_initdb: predict, initialize, then find it there; the password never shown', async () => {
      const d1 = join(dir, 'd1');
      expect(await ctx.call('postgres.datadir_exists', [d1])).toBe(false);
      const kw = {
        name: d1,
        runas,
        user: 'admin13',
        password: 'initdb-t-s3cret',
        auth: 'scram-sha-256',
        checksums: true,
      };
      expect(await runState(pgInitdb, 'present', kw, { ctx, test: true })).toEqual({
        name: d1,
        changes: {},
        result: null,
        comment: `Postgres data directory ${d1} is set to be initialized`,
      });
      expect(existsSync(d1)).toBe(false);
      expect(await runState(pgInitdb, 'present', kw, { ctx })).toEqual({
        name: d1,
        changes: { [d1]: 'Present' },
        result: true,
        comment: `Postgres data directory ${d1} has been initialized`,
      });
      expect(readFileSync(join(d1, 'pg_hba.conf'), 'utf8')).toMatch(/^local\s+all\s+all\s+scram-sha-256/m);
      expect(await ctx.call('postgres.datadir_exists', [d1])).toBe(true);
      expect(await runState(pgInitdb, 'present', kw, { ctx })).toMatchObject({
        changes: {},
        result: true,
        comment: `Postgres data directory ${d1} is already present`,
      });
      expect(await ctx.call('postgres.datadir_init', [d1], { runas })).toBe(false);
      const bad = join(dir, 'd2');
      expect(
        await runState(pgInitdb, 'present', { name: bad, runas, encoding: 'NO_SUCH_ENC' }, { ctx }),
      ).toEqual({
        name: bad,
        changes: {},
        result: false,
        comment: `Postgres data directory ${bad} initialization failed`,
      });
      expect(JSON.stringify(log.lines)).not.toContain('initdb-t-s3cret');
      expect(
        spawnSync('sh', ['-c', `ls ${tmpdir()} | grep -c '^tsalt-initdb-' || true`], {
          encoding: 'utf8',
        }).stdout.trim(),
      ).toBe('1');
    });

    it.skipIf(!which('pg_createcluster') || process.getuid?.() !== 0)(
      'postgres.cluster_* and postgres_cluster on a throwaway cluster (never main)',
      async () => {
        const port = await freePort();
        const st = (fn: string, kw: Record<string, unknown>, test = false) =>
          runState(pgCluster, fn, { version: String(version), name: cluster, ...kw }, { ctx, test });
        expect(await st('present', { port }, true)).toEqual({
          name: cluster,
          changes: {},
          result: null,
          comment: `Cluster ${version}/${cluster} is set to be created`,
        });
        expect(await st('present', { port, locale: 'C.UTF-8' })).toEqual({
          name: cluster,
          changes: { [`${version}/${cluster}`]: 'Present' },
          result: true,
          comment: `The cluster ${version}/${cluster} has been created`,
        });
        expect(
          ((await ctx.call('postgres.cluster_list', [], { verbose: true })) as Record<string, unknown>)[
            `${version}/${cluster}`
          ],
        ).toEqual({
          port,
          status: 'down',
          user: 'postgres',
          datadir: `/var/lib/postgresql/${version}/${cluster}`,
          log: `/var/log/postgresql/postgresql-${version}-${cluster}.log`,
        });
        expect(await ctx.call('postgres.cluster_list')).toContain(`${version}/${cluster}`);
        expect(await st('present', { port })).toMatchObject({
          comment: `Cluster ${version}/${cluster} is already present`,
        });
        expect(await st('present', { port: port === 1 ? 2 : 1 })).toEqual({
          name: cluster,
          changes: {},
          result: false,
          comment: `Cluster ${version}/${cluster} has wrong parameters which couldn't be changed on fly.`,
        });
        expect(await st('absent', {}, true)).toMatchObject({
          result: null,
          comment: `Cluster ${version}/${cluster} is set to be removed`,
        });
        expect(await st('absent', {})).toEqual({
          name: cluster,
          changes: { [cluster]: 'Absent' },
          result: true,
          comment: `Cluster ${version}/${cluster} has been removed`,
        });
        expect(await ctx.call('postgres.cluster_exists', [String(version), cluster])).toBe(false);
        expect(await ctx.call('postgres.cluster_exists', [String(version), 'main'])).toBe(
          existsSync(`/etc/postgresql/${version}/main`),
        );
        expect(await st('absent', {})).toMatchObject({
          comment: `Cluster ${version}/${cluster} is not present, so it cannot be removed`,
        });
      },
    );
  },
);
