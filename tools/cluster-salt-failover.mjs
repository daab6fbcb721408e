// By hand, not in CI: a stock Salt 3006 minion (master_type: failover) against a tsalt cluster of two
// masters and a private PostgreSQL; compares its returns through each master with salt-call --local and
// times the failover after kill -9 of the first master. Needs the build (dist/) and Salt's source as
// /work/shared/REAL-SALT.md describes (/tmp/wtcli-salt). Run: node tools/cluster-salt-failover.mjs
import { join } from 'node:path';
import {
  A,
  B,
  compareReturns,
  localCall,
  saltMinion,
  sleep,
  twoMasters,
  workDir,
} from './cluster-salt-common.mjs';

const D = new URL('../dist/tools', import.meta.url).pathname;
const { startPostgres } = await import(`${D}/db-servers.js`);
const WORK = workDir('failover');
const pg = await startPostgres();
await pg.createDatabase('cluster');
const conn = { host: pg.host, port: pg.port, user: pg.user, db: 'cluster', connect_timeout: 10 };
const cfg = (iface, id) => ({
  id,
  interface: iface,
  auto_accept: false,
  master_job_cache: 'postgres',
  postgres: conn,
  cluster_id: 'hand',
  cluster_peers: [A, B],
  cluster_pool_port: 45200,
  cluster_pki_dir: join(WORK, 'cpki'),
  cluster_backend: 'postgres',
  cluster_sync_interval: 0.5,
});
const { a, b } = await twoMasters(cfg(A, 'ma'), cfg(B, 'mb'));
const mdir = join(WORK, 'minion');
const salt = saltMinion(mdir, [
  'id: py1',
  `master: [${A}, ${B}]`,
  'master_type: failover',
  'master_alive_interval: 3',
  'retry_dns: 0',
  `master_port: ${a.retPort}`,
  `publish_port: ${a.publishPort}`,
  `root_dir: ${mdir}/root`,
  'user: root',
  'acceptance_wait_time: 1',
  'random_master: False',
  'master_tries: -1',
  'auth_tries: 1',
  'auth_timeout: 5',
  'log_level_logfile: info',
]);
const keys = async (c) => JSON.parse((await c.saltKey(['-L', '--out', 'json'])).stdout);
await salt.until('py1 pending on B', async () => (await keys(b)).minions_pre.includes('py1'), 90000);
console.log('py1 pending on B (signed in to A):', JSON.stringify(await keys(b)));
await b.saltKey(['-a', 'py1', '-y']);
await salt.until(
  'py1 answers A',
  async () => (await a.saltJson(['py1', 'test.ping', '-t', '10'])).data.py1 === true,
  90000,
);
const fns = [
  ['test.ping'],
  ['test.echo', 'hi'],
  ['test.arg', 'a', 'k=v'],
  ['grains.item', 'id'],
  ['config.get', 'master_type'],
  ['test.kwarg', 'x=1'],
  ['cmd.run', 'echo cluster'],
  ['test.retcode', '0'],
  ['sys.doc', 'test.ping'],
  ['test.outputter', 'abc'],
];
const masters = [
  ['A', a],
  ['B', b],
];
const [same, total] = await compareReturns('py1', masters, fns, (f) => localCall(mdir, f), 'salt');
console.log(`via the cluster vs salt-call --local: ${same} of ${total} identical`);
const t0 = Date.now();
await a.master.stop('SIGKILL');
await salt.until(
  'py1 answers B after A died',
  async () => (await b.saltJson(['py1', 'test.ping', '-t', '5'])).data.py1 === true,
  180000,
);
console.log(
  `after kill -9 of A, py1 answered B in ${((Date.now() - t0) / 1000).toFixed(1)} s (master_alive_interval 3)`,
);
salt.py.kill('SIGTERM');
await sleep(2000);
await b.stop();
await a.stop().catch(() => {});
await pg.destroy();
console.log(
  salt
    .out()
    .split('\n')
    .filter((l) => /fail|master/i.test(l))
    .slice(-15)
    .join('\n'),
);
process.exit(0);
