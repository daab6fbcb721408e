// By hand, not in CI: hot multi-master (`master: [A, B]`, master_type str) against two independent
// tsalt masters: a stock Salt 3006 minion and a tsalt minion with the same config. Each function is
// published from each master; the Salt minion's returns are compared with salt-call --local on it,
// and the tsalt minion's with the Salt minion's (functions whose result does not depend on the host's
// Python). Then: a job published on B is in B's job cache and not in A's, for both minions.
// Needs the build (dist/) and Salt's source as /work/shared/REAL-SALT.md describes. Run:
// node tools/cluster-salt-hot.mjs
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const D = new URL('../dist/tools', import.meta.url).pathname;
const { Cluster } = await import(`${D}/local-cluster.js`);
const A = '127.0.0.2';
const B = '127.0.0.3';
const PY = { ...process.env, PYTHONPATH: '/tmp/wtcli-salt/src:/tmp/wtcli-salt/shim' };
const WORK = mkdtempSync('/tmp/tsalt-salt-hot-');
const a = new Cluster({ master: { id: 'ha', interface: A, auto_accept: true } });
await a.writeMasterConfig();
const b = new Cluster({ master: { id: 'hb', interface: B, auto_accept: true } });
b.publishPort = a.publishPort;
b.retPort = a.retPort;
await a.startMaster();
const pb = join(b.root, 'etc/salt/pki/master');
mkdirSync(pb, { recursive: true });
for (const f of ['master.pem', 'master.pub'])
  copyFileSync(join(a.root, 'etc/salt/pki/master', f), join(pb, f));
await b.startMaster();
const mdir = join(WORK, 'minion');
mkdirSync(mdir, { recursive: true });
writeFileSync(
  join(mdir, 'minion'),
  [
    'id: py1',
    `master: [${A}, ${B}]`,
    `master_port: ${a.retPort}`,
    `root_dir: ${mdir}/root`,
    'user: root',
    'acceptance_wait_time: 1',
    'retry_dns: 0',
  ].join('\n') + '\n',
);
const py = spawn('/usr/bin/python3', ['/tmp/wtcli-salt/src/scripts/salt-minion', '-c', mdir, '-l', 'info'], {
  env: PY,
  stdio: ['ignore', 'pipe', 'pipe'],
});
let out = '';
py.stdout.on('data', (d) => (out += d));
py.stderr.on('data', (d) => (out += d));
await a.startMinion('ts1', { master: [A, B] });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const until = async (what, f, ms = 120000) => {
  const end = Date.now() + ms;
  for (;;) {
    if (await f().catch(() => false)) return;
    if (Date.now() > end) throw new Error(`${what}\n${out.slice(-3000)}`);
    await sleep(500);
  }
};
for (const c of [a, b])
  for (const id of ['py1', 'ts1'])
    await until(
      `${id} answers`,
      async () => (await c.saltJson([id, 'test.ping', '-t', '5'])).data[id] === true,
    );
const fns = [
  ['test.ping'],
  ['test.echo', 'hi'],
  ['test.arg', 'a', 'k=v'],
  ['grains.item', 'id'],
  ['config.get', 'master_type'],
  ['test.kwarg', 'x=1'],
  ['cmd.run', 'echo hot'],
  ['test.retcode', '0'],
];
const local = (f) => {
  const r = spawnSync(
    '/usr/bin/python3',
    ['/tmp/wtcli-salt/src/scripts/salt-call', '-c', mdir, '--local', '--out', 'json', ...f],
    {
      env: PY,
      encoding: 'utf8',
    },
  );
  return JSON.parse(r.stdout).local;
};
const strip = (v) => JSON.stringify(v, (k, x) => (k.startsWith('__pub_') ? undefined : x));
let same = 0;
let total = 0;
let sameTs = 0;
let totalTs = 0;
for (const [name, c] of [
  ['A', a],
  ['B', b],
])
  for (const f of fns) {
    const got = (await c.saltJson(['py1', ...f, '-t', '30'])).data.py1;
    const want = local(f);
    total++;
    if (strip(got) === strip(want)) same++;
    else console.log('DIFF salt', name, f.join(' '), JSON.stringify(got), JSON.stringify(want));
    if (f[0] === 'grains.item') continue;
    const ts = (await c.saltJson(['ts1', ...f, '-t', '30'])).data.ts1;
    totalTs++;
    if (strip(ts) === strip(got)) sameTs++;
    else console.log('DIFF tsalt', name, f.join(' '), JSON.stringify(ts), JSON.stringify(got));
  }
console.log(`Salt minion through each master vs salt-call --local: ${same} of ${total} identical`);
console.log(`tsalt minion vs Salt minion, the same jobs: ${sameTs} of ${totalTs} identical`);
for (const id of ['py1', 'ts1']) {
  const pub = await b.salt(['--out', 'json', '--static', '-v', id, 'test.echo', 'only-b', '-t', '30']);
  const jid = /jid (\d{20})/.exec(pub.stdout + pub.stderr)?.[1];
  const look = async (c) =>
    (await c.saltRun(['--out', 'json', 'jobs.lookup_jid', jid])).stdout.replace(/\s+/g, ' ');
  console.log(
    `${id}: job ${jid} from B — B's job cache: ${await look(b)}; A's: ${(await look(a)).slice(0, 80)}`,
  );
}
py.kill('SIGTERM');
await sleep(2000);
await b.stop();
await a.stop();
process.exit(0);
