/**
 * Private PostgreSQL and Redis servers for the external job store tests: each on a free
 * loopback port, with its files in a temp dir, stopped (and removed) afterwards. The servers
 * are Debian's `postgresql` and `redis-server` packages (`.ci/run` installs them); without
 * them the tests fail, unless TSALT_SKIP_DB_TESTS=1 says to skip them.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Whether the database tests are switched off explicitly. */
export const SKIP_DB_TESTS = process.env.TSALT_SKIP_DB_TESTS === '1';

const MISSING =
  "is not installed. The PostgreSQL and Redis job store tests need Debian's packages: " +
  'apt-get install -y postgresql redis-server (.ci/run does this). ' +
  'Set TSALT_SKIP_DB_TESTS=1 to skip these tests instead.';

/** A running test server that can be stopped and started again on the same port and data. */
export interface TestServer {
  readonly host: string;
  readonly port: number;
  /** Stops the server (its data stays until {@link TestServer.destroy}). */
  stop(): Promise<void>;
  /** Starts it again after {@link TestServer.stop}. */
  start(): Promise<void>;
  /** Stops it and removes its temp dir. */
  destroy(): Promise<void>;
}

export interface PostgresTestServer extends TestServer {
  readonly user: string;
  readonly password: string;
  readonly db: string;
  /** Creates another empty database on the server. */
  createDatabase(name: string): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

function findPostgresBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'postgres')) && existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(root, versions[0], 'bin');
}

function findOnPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(':').concat(['/usr/bin', '/usr/sbin'])) {
    if (dir && existsSync(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

/** PostgreSQL refuses to run as root: then it runs as the `postgres` system user. */
export function serverUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  const fields = line?.split(':');
  if (!fields || fields.length < 4)
    throw new Error('running as root, and there is no postgres system user to run PostgreSQL as');
  return { uid: Number(fields[2]), gid: Number(fields[3]) };
}

const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

function waitFor(
  check: () => Promise<boolean>,
  what: string,
  child: ChildProcess,
  log: () => string,
): Promise<void> {
  const deadline = Date.now() + 30_000;
  return new Promise((resolve, reject) => {
    const tick = async () => {
      if (child.exitCode !== null) return reject(new Error(`${what} exited at start:\n${log()}`));
      if (await check().catch(() => false)) return resolve();
      if (Date.now() > deadline) return reject(new Error(`${what} did not start in 30 s:\n${log()}`));
      setTimeout(tick, 50);
    };
    void tick();
  });
}

/** Answers a line protocol probe: sends `probe`, true when the reply starts with `expect`. */
function probe(port: number, send: string, expect: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    let data = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write(send));
    socket.on('data', (chunk) => {
      data += chunk.toString();
      if (data.length >= expect.length) done(data.startsWith(expect));
    });
  });
}

function stopChild(child: ChildProcess | undefined, signal: NodeJS.Signals): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const hard = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(hard);
      live.delete(child);
      resolve();
    });
    child.kill(signal);
  });
}

/** Starts a private PostgreSQL (trust auth on 127.0.0.1, fsync off) with database `salt`. */
export async function startPostgres(): Promise<PostgresTestServer> {
  const bin = findPostgresBin();
  if (!bin) throw new Error(`PostgreSQL (/usr/lib/postgresql/*/bin/postgres) ${MISSING}`);
  const as = serverUser();
  const dir = mkdtempSync(join(tmpdir(), 'tsalt-pg-'));
  if (as) chownSync(dir, as.uid, as.gid);
  const data = join(dir, 'data');
  const init = spawnSync(
    join(bin, 'initdb'),
    ['-D', data, '-U', 'salt', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C'],
    { ...(as ?? {}), cwd: dir, encoding: 'utf8' },
  );
  if (init.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`initdb failed: ${init.stderr || init.error?.message}`);
  }
  const port = await freePort();
  let child: ChildProcess | undefined;
  let output = '';
  const psql = (sql: string) => {
    const res = spawnSync(
      join(bin, 'psql'),
      ['-h', '127.0.0.1', '-p', String(port), '-U', 'salt', '-d', 'postgres', '-Atc', sql],
      {
        encoding: 'utf8',
      },
    );
    return res.status === 0 ? res.stdout : undefined;
  };
  const start = async () => {
    output = '';
    child = spawn(
      join(bin, 'postgres'),
      [
        '-D',
        data,
        '-p',
        String(port),
        '-k',
        dir,
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'fsync=off',
        '-c',
        'synchronous_commit=off',
        '-c',
        'full_page_writes=off',
        '-c',
        'max_connections=50',
      ],
      { ...(as ?? {}), cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    live.add(child);
    child.stdout?.on('data', (c: Buffer) => {
      output += c.toString();
    });
    child.stderr?.on('data', (c: Buffer) => {
      output += c.toString();
    });
    const started = child;
    await waitFor(
      async () => psql('SELECT 1') !== undefined,
      'postgres',
      started,
      () => output,
    );
  };
  await start();
  const createDatabase = async (name: string) => {
    if (psql(`CREATE DATABASE "${name}"`) === undefined) throw new Error(`cannot create database ${name}`);
  };
  await createDatabase('salt');
  return {
    host: '127.0.0.1',
    port,
    user: 'salt',
    password: 'salt',
    db: 'salt',
    createDatabase,
    start,
    stop: () => stopChild(child, 'SIGINT'),
    async destroy() {
      await stopChild(child, 'SIGINT');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Starts a private Redis (no persistence) on 127.0.0.1. */
export async function startRedis(): Promise<TestServer> {
  const bin = findOnPath('redis-server');
  if (!bin) throw new Error(`redis-server ${MISSING}`);
  const dir = mkdtempSync(join(tmpdir(), 'tsalt-redis-'));
  const port = await freePort();
  let child: ChildProcess | undefined;
  let output = '';
  const start = async () => {
    output = '';
    child = spawn(
      bin,
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
      {
        cwd: dir,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    live.add(child);
    child.stdout?.on('data', (c: Buffer) => {
      output += c.toString();
    });
    child.stderr?.on('data', (c: Buffer) => {
      output += c.toString();
    });
    const started = child;
    await waitFor(
      () => probe(port, 'PING\r\n', '+PONG'),
      'redis-server',
      started,
      () => output,
    );
  };
  await start();
  return {
    host: '127.0.0.1',
    port,
    start,
    stop: () => stopChild(child, 'SIGTERM'),
    async destroy() {
      await stopChild(child, 'SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
