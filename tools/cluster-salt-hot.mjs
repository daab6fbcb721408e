// By hand, not in CI: hot multi-master (`master: [A, B]`, master_type str) against two independent
// tsalt masters: a stock Salt 3006 minion and a tsalt minion with the same config. Each function is
// published from each master; the Salt minion's returns are compared with salt-call --local on it,
// and the tsalt minion's with the Salt minion's (functions whose result does not depend on the host's
// Python). Then: a job published on B is in B's job cache and not in A's, for both minions. Then what
// goes to "the master" rather than to the publisher (pillar.items, mine.send and mine.get,
// event.fire_master) from jobs published on B, with both masters up and after kill -9 of A: the two
// minions' returns compared, and whether each fired event reached B's bus.
// Needs the build (dist/) and Salt's source as /work/shared/REAL-SALT.md describes. Run:
// node tools/cluster-salt-hot.mjs
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  A,
  B,
  compareReturns,
  localCall,
  saltMinion,
  sleep,
  strip,
  twoMasters,
  workDir,
} from './cluster-salt-common.mjs';

const K = new URL('../dist/kernel', import.meta.url).pathname;
const { EventListener, masterEventAddresses } = await import(`${K}/bus/event-bus.js`);
const WORK = workDir('hot');
/** Each master its own pillar (`who: <its id>`), to tell which one compiled it. */
const cfg = (id, iface) => {
  const dir = join(WORK, `pillar-${id}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'top.sls'), "base:\n  '*':\n    - who\n");
  writeFileSync(join(dir, 'who.sls'), `who: ${id}\n`);
  return { id, interface: iface, auto_accept: true, pillar_roots: { base: [dir] } };
};
const { a, b } = await twoMasters(cfg('ha', A), cfg('hb', B));
const mdir = join(WORK, 'minion');
const salt = saltMinion(mdir, [
  'id: py1',
  `master: [${A}, ${B}]`,
  `master_port: ${a.retPort}`,
  `root_dir: ${mdir}/root`,
  'user: root',
  'acceptance_wait_time: 1',
  'retry_dns: 0',
]);
await a.startMinion('ts1', { master: [A, B] });
for (const c of [a, b])
  for (const id of ['py1', 'ts1'])
    await salt.until(
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
const masters = [
  ['A', a],
  ['B', b],
];
const [same, total] = await compareReturns('py1', masters, fns, (f) => localCall(mdir, f), 'salt');
const [sameTs, totalTs] = await compareReturns(
  'ts1',
  masters,
  fns.filter((f) => f[0] !== 'grains.item'),
  async (f, _name, c) => (await c.saltJson(['py1', ...f, '-t', '30'])).data.py1,
  'tsalt',
);
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

// the traffic to "the master": jobs published on B, both masters up, then A killed
const seen = [];
const events = new EventListener(masterEventAddresses(join(b.root, 'var/run/salt/master')), ['hand/']);
await events.ready();
void (async () => {
  for await (const ev of events) seen.push(ev.tag);
})();
/** One step's return for minion `id`, with the minion's id written as `ID`. */
const step = async (id, f, tag) => {
  const got = (await b.saltJson([id, ...f, '-t', '60'])).data[id];
  let reached = '';
  if (tag) {
    for (let i = 0; i < 40 && !seen.includes(tag); i++) await sleep(250);
    reached = seen.includes(tag) ? ' (on B)' : ' (not on B)';
  }
  return strip(got).replaceAll(id, 'ID') + reached;
};
let sameMove = 0;
let totalMove = 0;
for (const phase of ['both up', 'after kill -9 of A']) {
  if (phase !== 'both up') {
    await a.master.stop('SIGKILL');
    await sleep(3000);
  }
  const n = phase === 'both up' ? 1 : 2;
  const steps = [
    [['pillar.items']],
    [['event.fire_master', `{n: ${n}}`, `hand/ID/${n}`], `hand/ID/${n}`],
    [['mine.send', 'test.echo', `mined-${n}`]],
    [['mine.get', 'ID', 'test.echo']],
  ];
  for (const [f, tag] of steps) {
    const t0 = Date.now();
    const got = {};
    for (const id of ['py1', 'ts1'])
      got[id] = await step(
        id,
        f.map((x) => x.replace('ID', id)),
        tag?.replace('ID', id),
      );
    totalMove++;
    if (got.py1 === got.ts1) sameMove++;
    console.log(
      `${phase}: ${f[0]}: ${got.py1 === got.ts1 ? 'same' : 'DIFF'} salt=${got.py1} tsalt=${got.ts1} (${((Date.now() - t0) / 1000).toFixed(1)} s)`,
    );
  }
}
console.log(`to "the master", jobs from B, both up then A killed: ${sameMove} of ${totalMove} identical`);
events.close();
salt.py.kill('SIGTERM');
await sleep(2000);
await b.stop();
await a.stop().catch(() => {});
process.exit(0);
