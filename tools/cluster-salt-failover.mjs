// By hand, not in CI: a stock Salt 3006 minion (master_type: failover) against a tsalt cluster of two
// masters and a private PostgreSQL; compares its returns through each master with salt-call --local and
// times the failover after kill -9 of the first master. Needs the build (dist/) and Salt's source as
// /work/shared/REAL-SALT.md describes (/tmp/wtcli-salt). Run: node tools/cluster-salt-failover.mjs
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const D = new URL('../dist/tools', import.meta.url).pathname;
const { startPostgres } = await import(`${D}/db-servers.js`);
const { Cluster } = await import(`${D}/local-cluster.js`);
const A = '127.0.0.2',
  B = '127.0.0.3';
const WORK = (await import('node:fs')).mkdtempSync('/tmp/tsalt-salt-failover-');
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
const a = new Cluster({ master: cfg(A, 'ma') });
await a.writeMasterConfig();
const b = new Cluster({ master: cfg(B, 'mb') });
b.publishPort = a.publishPort;
b.retPort = a.retPort;
await a.startMaster();
const pa = join(a.root, 'etc/salt/pki/master'),
  pb = join(b.root, 'etc/salt/pki/master');
mkdirSync(pb, { recursive: true });
for (const f of ['master.pem', 'master.pub']) copyFileSync(join(pa, f), join(pb, f));
await b.startMaster();
const mdir = join(WORK, 'minion');
mkdirSync(mdir, { recursive: true });
writeFileSync(
  join(mdir, 'minion'),
  [
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
  ].join('\n') + '\n',
);
const py = spawn('/usr/bin/python3', ['/tmp/wtcli-salt/src/scripts/salt-minion', '-c', mdir, '-l', 'info'], {
  env: { ...process.env, PYTHONPATH: '/tmp/wtcli-salt/src:/tmp/wtcli-salt/shim' },
  stdio: ['ignore', 'pipe', 'pipe'],
});
let out = '';
py.stdout.on('data', (d) => (out += d));
py.stderr.on('data', (d) => (out += d));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const until = async (what, f, ms = 90000) => {
  const end = Date.now() + ms;
  for (;;) {
    if (await f()) return;
    if (Date.now() > end) throw new Error(what + '\n' + out.slice(-3000));
    await sleep(300);
  }
};
const keys = async (c) => JSON.parse((await c.saltKey(['-L', '--out', 'json'])).stdout);
await until('py1 pending on B', async () => (await keys(b)).minions_pre.includes('py1'));
console.log('py1 pending on B (signed in to A):', JSON.stringify(await keys(b)));
await b.saltKey(['-a', 'py1', '-y']);
await until(
  'py1 answers A',
  async () => (await a.saltJson(['py1', 'test.ping', '-t', '10'])).data.py1 === true,
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
const local = (f) => {
  const r = spawnSync(
    '/usr/bin/python3',
    ['/tmp/wtcli-salt/src/scripts/salt-call', '-c', mdir, '--local', '--out', 'json', ...f],
    { env: { ...process.env, PYTHONPATH: '/tmp/wtcli-salt/src:/tmp/wtcli-salt/shim' }, encoding: 'utf8' },
  );
  return JSON.parse(r.stdout).local;
};
let same = 0,
  total = 0;
for (const [name, c] of [
  ['A', a],
  ['B', b],
])
  for (const f of fns) {
    const got = (await c.saltJson(['py1', ...f, '-t', '30'])).data.py1;
    const want = local(f);
    total++;
    const strip = (v) => JSON.stringify(v, (k, x) => (k.startsWith('__pub_') ? undefined : x));
    const eq = strip(got) === strip(want);
    if (eq) same++;
    else console.log('DIFF', name, f.join(' '), JSON.stringify(got), JSON.stringify(want));
  }
console.log(`via the cluster vs salt-call --local: ${same} of ${total} identical`);
const t0 = Date.now();
await a.master.stop('SIGKILL');
await until(
  'py1 answers B after A died',
  async () => (await b.saltJson(['py1', 'test.ping', '-t', '5'])).data.py1 === true,
  180000,
);
console.log(
  `after kill -9 of A, py1 answered B in ${((Date.now() - t0) / 1000).toFixed(1)} s (master_alive_interval 3)`,
);
py.kill('SIGTERM');
await sleep(2000);
await b.stop();
await a.stop().catch(() => {});
await pg.destroy();
console.log(
  out
    .split('\n')
    .filter((l) => /fail|master/i.test(l))
    .slice(-15)
    .join('\n'),
);
process.exit(0);
