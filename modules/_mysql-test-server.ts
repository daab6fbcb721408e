/**
 * A private MariaDB server for the `mysql` module's tests: `mariadb-install-db` into a temp
 * dir, `mariadbd` on a free loopback port and its own socket (as the `mysql` system user when
 * the tests run as root), with an administrator `tsalt_admin`@`127.0.0.1` that logs in with a
 * password; stopped and removed by `destroy()`, and killed if the test process exits first.
 * Debian's `mariadb-server` package provides the programs (`.ci/run` installs it); without
 * them the tests fail unless TSALT_SKIP_DB_TESTS=1 says to skip them.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freeLoopbackPort, systemBin } from './_test-server-tools.js';

/** Whether the database tests are switched off explicitly. */
export const SKIP_DB_TESTS = process.env.TSALT_SKIP_DB_TESTS === '1';

export interface MariadbTestServer {
  readonly host: '127.0.0.1';
  readonly port: number;
  readonly socket: string;
  /** An administrator (all privileges, grant option) that logs in over TCP with {@link password}. */
  readonly user: string;
  readonly password: string;
  /** Runs SQL as the server's root over its socket; throws with the client's stderr on failure. */
  sql(statements: string): string;
  destroy(): Promise<void>;
}

const MISSING =
  "is not installed. The mysql module's tests need Debian's mariadb-server package " +
  '(.ci/run installs it). Set TSALT_SKIP_DB_TESTS=1 to skip these tests instead.';

const bin = (name: string): string => systemBin(name, MISSING);

/** The `mysql` system user's ids, when running as root (mariadbd will not run as root unasked). */
function serverUser(): { name: string; uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const f = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('mysql:'))
    ?.split(':');
  return f && f.length > 3 ? { name: 'mysql', uid: Number(f[2]), gid: Number(f[3]) } : undefined;
}

const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

/** Starts a throwaway MariaDB; the caller must `destroy()` it (an afterAll). */
export async function startMariadb(): Promise<MariadbTestServer> {
  const mariadbd = bin('mariadbd');
  const install = bin('mariadb-install-db');
  const client = bin('mariadb');
  const dir = mkdtempSync(join(tmpdir(), 'tsalt-mysql-'));
  const as = serverUser();
  // as root without a mysql system user, mariadbd has to be told to run as root
  const runAs = as?.name ?? (process.getuid?.() === 0 ? 'root' : undefined);
  if (as) chownSync(dir, as.uid, as.gid);
  const data = join(dir, 'data');
  const socket = join(dir, 'mysqld.sock');
  const init = spawnSync(
    install,
    [
      '--no-defaults',
      `--datadir=${data}`,
      ...(runAs ? [`--user=${runAs}`] : []),
      '--auth-root-authentication-method=normal',
      '--skip-test-db',
    ],
    { cwd: dir, encoding: 'utf8' },
  );
  if (init.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`mariadb-install-db failed:\n${init.stdout}\n${init.stderr}`);
  }
  const port = await freeLoopbackPort();
  const log = join(dir, 'server.log');
  const child = spawn(
    mariadbd,
    [
      '--no-defaults',
      `--datadir=${data}`,
      ...(runAs ? [`--user=${runAs}`] : []),
      '--bind-address=127.0.0.1',
      `--port=${port}`,
      `--socket=${socket}`,
      `--pid-file=${join(dir, 'mysqld.pid')}`,
      `--log-error=${log}`,
      '--skip-log-bin',
      '--innodb-buffer-pool-size=16M',
      '--skip-name-resolve',
    ],
    { stdio: 'ignore' },
  );
  live.add(child);
  const stop = (): Promise<void> =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const hard = setTimeout(() => child.kill('SIGKILL'), 15_000);
      child.once('exit', () => {
        clearTimeout(hard);
        resolve();
      });
      child.kill('SIGTERM');
    });
  const destroy = async () => {
    await stop();
    live.delete(child);
    rmSync(dir, { recursive: true, force: true });
  };
  const sql = (statements: string): string => {
    const r = spawnSync(
      client,
      ['--no-defaults', `--socket=${socket}`, '-uroot', '-N', '-B', '-e', statements],
      {
        encoding: 'utf8',
      },
    );
    if (r.status !== 0) throw new Error(`mariadb: ${r.stderr}`);
    return r.stdout;
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) {
      const text = existsSync(log) ? readFileSync(log, 'utf8') : '';
      await destroy();
      throw new Error(`mariadbd exited at start:\n${text}`);
    }
    if (existsSync(socket)) {
      try {
        sql('SELECT 1');
        break;
      } catch {}
    }
    if (Date.now() > deadline) {
      await destroy();
      throw new Error('mariadbd did not start in 60 s');
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const user = 'tsalt_admin';
  const password = 'Adm1n-secret-9f3';
  sql(
    `CREATE USER '${user}'@'127.0.0.1' IDENTIFIED BY '${password}'; GRANT ALL PRIVILEGES ON *.* TO '${user}'@'127.0.0.1' WITH GRANT OPTION;`,
  );
  return { host: '127.0.0.1', port, socket, user, password, sql, destroy };
}
