/**
 * A private Zabbix 6.0 API for the `zabbix` module's and states' tests: Debian's
 * `zabbix-frontend-php` served by `php -S` on a free loopback port, over a throwaway
 * PostgreSQL cluster (tools/db-servers.ts) loaded with `zabbix-server-pgsql`'s schema and data.
 * The zabbix server daemon is not needed for the API's CRUD.
 *
 * The frontend reads its config from a fixed path (/etc/zabbix/zabbix.conf.php): the test
 * serves a hard-linked copy of /usr/share/zabbix whose CConfigFile names a config in the temp
 * dir instead, so nothing outside the temp dir is touched.
 *
 * The data's template contents (items, triggers, graphs, dashboards, value maps, template
 * macros and tags: 128,000 of its 130,000 rows) are left out: loading them takes minutes on a
 * loaded machine, and the API's host, group, user, macro, media type and template calls do not
 * need them (templates stay, empty). The default login is Admin / zabbix.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import pg from 'pg';
import { freePort } from '../../kernel/process/ports.js';
import { type PostgresTestServer, SKIP_DB_TESTS, startPostgres } from '../../tools/db-servers.js';

const FRONTEND = '/usr/share/zabbix';
const SQL = '/usr/share/zabbix-server-pgsql';

/** Tables of the data file that hold template contents, not loaded (see the file's doc). */
const SKIPPED_TABLES =
  /^(items|item_\w+|functions|triggers|trigger_\w+|graphs|graphs_items|graph_\w+|lld_\w+|host_discovery|group_prototype|valuemap|valuemap_mapping|dashboard|dashboard_page|widget|widget_field|hostmacro|host_tag|httptest\w*|sysmap\w*)$/;

export interface ZabbixTestServer {
  /** The API's URL (`.../api_jsonrpc.php`). */
  readonly url: string;
  readonly user: string;
  readonly password: string;
  /** Stops php and PostgreSQL and removes their files. */
  stop(): Promise<void>;
}

const phpHasPgsql = (): boolean => {
  const r = spawnSync('php', ['-m'], { encoding: 'utf8' });
  return r.status === 0 && /^pgsql$/m.test(r.stdout);
};

/** Why the Zabbix tests cannot run here, or null when they can. */
export function zabbixSkipReason(): string | null {
  if (SKIP_DB_TESTS) return 'TSALT_SKIP_DB_TESTS=1';
  if (!existsSync(join(FRONTEND, 'api_jsonrpc.php')))
    return "Debian's zabbix-frontend-php is not installed (.ci/run installs it)";
  if (!existsSync(join(SQL, 'schema.sql.gz')))
    return "Debian's zabbix-server-pgsql (the schema) is not installed (.ci/run installs it)";
  if (!phpHasPgsql())
    return 'php with the pgsql extension (php-cli, php-pgsql) is not installed (.ci/run installs them)';
  return null;
}

const readSql = (name: string): string =>
  gunzipSync(readFileSync(join(SQL, `${name}.sql.gz`))).toString('utf8');

/** The data file without the skipped tables' rows and without its own transaction. */
function trimmedData(): string {
  const text = readSql('data')
    .replace(/^START TRANSACTION;$/m, '')
    .replace(/^COMMIT;$/m, '');
  return text
    .split(/^(?=INSERT INTO )/m)
    .filter((stmt) => {
      const table = /^INSERT INTO (\w+)/.exec(stmt)?.[1];
      return table === undefined || !SKIPPED_TABLES.test(table);
    })
    .join('');
}

async function loadSchema(db: PostgresTestServer, database: string): Promise<void> {
  const client = new pg.Client({ host: db.host, port: db.port, user: db.user, database });
  await client.connect();
  try {
    await client.query('SET session_replication_role = replica');
    await client.query(readSql('schema'));
    await client.query(`BEGIN;${readSql('images')}${trimmedData()};COMMIT;`);
  } finally {
    await client.end();
  }
}

/** A copy of the frontend (hard links where it can) whose config file is `config`. */
function frontendCopy(dir: string, config: string): string {
  const web = join(dir, 'web');
  let cp = spawnSync('cp', ['-al', FRONTEND, web], { encoding: 'utf8' });
  if (cp.status !== 0) {
    rmSync(web, { recursive: true, force: true });
    cp = spawnSync('cp', ['-r', FRONTEND, web], { encoding: 'utf8' });
    if (cp.status !== 0) throw new Error(`cannot copy ${FRONTEND}: ${cp.stderr}`);
  }
  const cls = join(web, 'include/classes/core/CConfigFile.php');
  const text = readFileSync(cls, 'utf8').replace("'/etc/zabbix/zabbix.conf.php'", `'${config}'`);
  unlinkSync(cls); // a hard link to the package's file: replace it, never write through it
  writeFileSync(cls, text);
  return web;
}

function configText(db: PostgresTestServer, database: string): string {
  const s = (v: string) => `'${v.replace(/[\\']/g, '\\$&')}'`;
  return `<?php
$DB['TYPE'] = 'POSTGRESQL';
$DB['SERVER'] = ${s(db.host)};
$DB['PORT'] = ${s(String(db.port))};
$DB['DATABASE'] = ${s(database)};
$DB['USER'] = ${s(db.user)};
$DB['PASSWORD'] = '';
$DB['SCHEMA'] = '';
$DB['ENCRYPTION'] = false;
$DB['KEY_FILE'] = '';
$DB['CERT_FILE'] = '';
$DB['CA_FILE'] = '';
$DB['VERIFY_HOST'] = false;
$DB['CIPHER_LIST'] = '';
$DB['VAULT_URL'] = '';
$DB['VAULT_DB_PATH'] = '';
$DB['VAULT_TOKEN'] = '';
$DB['DOUBLE_IEEE754'] = true;
$ZBX_SERVER_NAME = 'tsalt-test';
$IMAGE_FORMAT_DEFAULT = IMAGE_FORMAT_PNG;
`;
}

async function apiAnswers(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'apiinfo.version', params: {}, id: 1 }),
      signal: AbortSignal.timeout(5000),
    });
    return res.ok && typeof ((await res.json()) as { result?: unknown }).result === 'string';
  } catch {
    return false;
  }
}

/**
 * Stops `php -S` and its workers (PHP_CLI_SERVER_WORKERS forks them): the server runs in a
 * process group of its own, and the whole group gets the signals, so no worker outlives it.
 */
function stopChild(child: ChildProcess): Promise<void> {
  const signalGroup = (signal: NodeJS.Signals): void => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, signal);
    } catch {
      // the group is gone already
    }
  };
  if (child.exitCode !== null || child.signalCode !== null) {
    signalGroup('SIGKILL');
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    const hard = setTimeout(() => signalGroup('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(hard);
      signalGroup('SIGKILL');
      resolve();
    });
    signalGroup('SIGTERM');
  });
}

/** Starts PostgreSQL, loads Zabbix's schema and serves the API; waits up to 90 s for it to answer. */
export async function startZabbixServer(): Promise<ZabbixTestServer> {
  const db = await startPostgres();
  const dir = mkdtempSync(join(tmpdir(), 'tsalt-zabbix-'));
  let php: ChildProcess | undefined;
  const stop = async () => {
    if (php) await stopChild(php);
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await db.createDatabase('zabbix');
    await loadSchema(db, 'zabbix');
    const config = join(dir, 'zabbix.conf.php');
    writeFileSync(config, configText(db, 'zabbix'));
    const web = frontendCopy(dir, config);
    const port = await freePort();
    let output = '';
    php = spawn('php', ['-S', `127.0.0.1:${port}`, '-t', web], {
      cwd: dir,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, PHP_CLI_SERVER_WORKERS: '4' },
    });
    const child = php;
    for (const s of [child.stdout, child.stderr])
      s?.on('data', (c: Buffer) => (output = (output + c).slice(-4000)));
    const url = `http://127.0.0.1:${port}/api_jsonrpc.php`;
    const deadline = Date.now() + 90_000;
    while (!(await apiAnswers(url))) {
      if (child.exitCode !== null) throw new Error(`php -S exited at start:\n${output}`);
      if (Date.now() > deadline) throw new Error(`the Zabbix API did not answer in 90 s:\n${output}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    return { url, user: 'Admin', password: 'zabbix', stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
