/**
 * Salt's data-directory and cluster functions of the `postgres` module: `datadir_exists` and
 * `datadir_init` (initdb, run as `runas`, the `postgres` system user by default; a password goes
 * to initdb in a `--pwfile` only runas can read, removed after the run, never in argv), and Debian's
 * `cluster_list`/`cluster_exists`/`cluster_create`/`cluster_remove` (`pg_lsclusters`,
 * `pg_createcluster`, `pg_dropcluster`: Salt's `deb_postgres`, loaded under the same name).
 */
import { chownSync, existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineFunction, type ExecContext, SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import { runasSetup } from './_cmd-runas.js';
import { passwdByName } from './_passwd-db.js';
import { cli, name, opt, truthy, u } from './_pg-args.js';
import { pgOption } from './_pg-options.js';
import { findPgBinary, text } from './_pg-run.js';
import { runProcess } from './_spawn.js';
import { which } from './_which.js';

/**
 * Salt's `--pwfile`: the password in a file only runas can read (0600, in a 0700 temp
 * directory it owns), removed after the run. initdb cannot read it from a pipe: a child's
 * stdin here is a socket, which `/dev/stdin` does not open.
 */
async function pwfile(password: string, runas: string): Promise<{ file: string; remove: () => void }> {
  const dir = mkdtempSync(join(tmpdir(), 'tsalt-initdb-'));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  try {
    const file = join(dir, 'pwfile');
    writeFileSync(file, password, { mode: 0o600 });
    const owner = process.getuid?.() === 0 ? await passwdByName(runas) : undefined;
    if (owner) for (const p of [dir, file]) chownSync(p, owner.uid, owner.gid);
    return { file, remove };
  } catch (err) {
    remove();
    throw err;
  }
}

const isFile = (p: string) => existsSync(p) && statSync(p).isFile();

/** Salt's `datadir_exists`: PG_VERSION and postgresql.conf are there. */
export const datadirExists = (dir: string) =>
  isFile(join(dir, 'PG_VERSION')) && isFile(join(dir, 'postgresql.conf'));

export interface Ran {
  pid: number;
  retcode: number;
  stdout: string;
  stderr: string;
}

async function run(ctx: ExecContext, argv: string[], runas: string | null): Promise<Ran> {
  const as = await runasSetup(runas, null);
  const timeout = await pgOption(ctx, 'timeout');
  const r = await runProcess({
    argv: [...(as?.prefix ?? []), ...argv],
    cwd: as?.home && existsSync(as.home) ? as.home : '/',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...as?.env },
    stdin: null,
    ...(timeout > 0 ? { timeoutMs: timeout * 1000 } : {}),
    signal: ctx.signal,
  });
  const s = (b: Buffer) => b.toString('utf8').replace(/\n$/, '');
  return { pid: r.pid, retcode: r.returncode ?? 1, stdout: s(r.stdout), stderr: s(r.stderr) };
}

function debTool(tool: string): string {
  const found = which(tool);
  if (!found) throw new SALT_ERR_EXEC_COMMAND(`${tool} was not found (Debian's postgresql-common)`);
  return found;
}

export type ClusterInfo = { port: number; status: string; user: string; datadir: string; log: string };

/** `pg_lsclusters --no-header`: {"15/main": {port, status, user, datadir, log}}. */
async function clusterList(ctx: ExecContext): Promise<Record<string, ClusterInfo>> {
  const r = await run(ctx, [debTool('pg_lsclusters'), '--no-header'], null);
  if (r.retcode !== 0) ctx.log.error('Error listing clusters');
  const out: Record<string, ClusterInfo> = {};
  for (const line of r.stdout.split('\n')) {
    const f = line.trim().split(/\s+/);
    if (f.length < 7) continue;
    const [version, cname, port, status, user, datadir, log] = f as [
      string,
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    out[`${version}/${cname}`] = { port: Number(port), status, user, datadir, log };
  }
  return out;
}

export const clusterFunctions = {
  datadir_exists: defineFunction({
    args: (z) => z.object({ name: name(z) }),
    doc: `Checks if a postgres data directory has been initialized (PG_VERSION and postgresql.conf in it).${cli('datadir_exists /var/lib/pgsql/data')}`,
    run: (_ctx, a) => datadirExists(a.name),
  }),
  datadir_init: defineFunction({
    args: (z) =>
      z.object({
        name: name(z),
        auth: z.string().default('password'),
        user: u(z),
        password: u(z),
        encoding: z.string().default('UTF8'),
        locale: u(z),
        waldir: u(z),
        checksums: u(z),
        runas: u(z),
      }),
    doc: `Initializes a postgres data directory with initdb (as runas, postgres by default; user: the superuser, runas by default); false when it is initialized already.${cli('datadir_init /var/lib/pgsql/data')}`,
    run: async (ctx, a) => {
      if (datadirExists(a.name)) {
        ctx.log.info(`${a.name} already exists`);
        return false;
      }
      const runas = text(a.runas) ?? 'postgres';
      const initdb = findPgBinary('initdb', await pgOption(ctx, 'bins_dir'));
      if (!initdb) throw new SALT_ERR_EXEC_COMMAND('initdb executable not found.');
      const argv = [
        initdb,
        `--pgdata=${a.name}`,
        `--username=${text(a.user) ?? runas}`,
        `--auth=${a.auth}`,
        `--encoding=${a.encoding}`,
      ];
      const locale = opt(a.locale);
      if (locale !== null) argv.push(`--locale=${locale}`);
      const waldir = opt(a.waldir);
      if (waldir !== null) argv.push('-X', waldir);
      if (truthy(a.checksums)) argv.push('--data-checksums');
      const password = opt(a.password);
      const pw = password === null ? null : await pwfile(password, runas);
      if (pw) argv.push(`--pwfile=${pw.file}`);
      const r = await run(ctx, argv, runas).finally(() => pw?.remove());
      if (r.retcode !== 0)
        ctx.log.error({ stderr: r.stderr }, 'Error initilizing the postgres data directory');
      return r.retcode === 0;
    },
  }),
  cluster_list: defineFunction({
    args: (z) => z.object({ verbose: u(z) }),
    doc: `Return the clusters of the Postgres server (Debian's pg_lsclusters): their "version/name" list, or with verbose a dict of port, status, user, datadir and log.${cli('cluster_list verbose=True')}`,
    run: async (ctx, a) => {
      const all = await clusterList(ctx);
      return truthy(a.verbose) ? all : Object.keys(all);
    },
  }),
  cluster_exists: defineFunction({
    args: (z) => z.object({ version: name(z), name: name(z).default('main') }),
    doc: `Checks if a given version and name of a cluster exists.${cli("cluster_exists '9.3' 'main'")}`,
    run: async (ctx, a) => `${a.version}/${a.name}` in (await clusterList(ctx)),
  }),
  cluster_create: defineFunction({
    args: (z) =>
      z.object({
        version: name(z),
        name: name(z).default('main'),
        port: u(z),
        locale: u(z),
        encoding: u(z),
        datadir: u(z),
        allow_group_access: u(z),
        data_checksums: u(z),
        wal_segsize: u(z),
      }),
    doc: `Adds a cluster to the Postgres server with Debian's pg_createcluster; psql's result, or False when it fails.${cli("cluster_create '9.3' 'main' port=5433")}`,
    run: async (ctx, a) => {
      const argv = [debTool('pg_createcluster')];
      for (const [flag, v] of [
        ['--port', a.port],
        ['--locale', a.locale],
        ['--encoding', a.encoding],
        ['--datadir', a.datadir],
      ] as const)
        if (truthy(v)) argv.push(flag, String(v));
      argv.push(a.version, a.name);
      if (truthy(a.allow_group_access) || truthy(a.data_checksums) || truthy(a.wal_segsize)) argv.push('--');
      if (a.allow_group_access === true) argv.push('--allow-group-access');
      if (a.data_checksums === true) argv.push('--data-checksums');
      if (truthy(a.wal_segsize)) argv.push('--wal-segsize', String(a.wal_segsize));
      const r = await run(ctx, argv, null);
      if (r.retcode !== 0) {
        ctx.log.error(`Error creating a Postgresql cluster ${a.version}/${a.name}`);
        return false;
      }
      return r;
    },
  }),
  cluster_remove: defineFunction({
    args: (z) => z.object({ version: name(z), name: name(z).default('main'), stop: u(z) }),
    doc: `Remove a cluster with Debian's pg_dropcluster (stop: stop it first); the command's result.${cli("cluster_remove '9.3' 'main' stop=True")}`,
    run: async (ctx, a) => {
      const argv = [debTool('pg_dropcluster'), ...(truthy(a.stop) ? ['--stop'] : []), a.version, a.name];
      const r: Ran & { changes?: string } = await run(ctx, argv, null);
      if (r.retcode !== 0) ctx.log.error(`Error removing a Postgresql cluster ${a.version}/${a.name}`);
      else r.changes = `Successfully removed cluster ${a.version}/${a.name}`;
      return r;
    },
  }),
};
