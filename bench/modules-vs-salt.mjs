// By hand, not in CI (issue 21's figures): CPU and wall time of pkg.list_pkgs, grains.items,
// network.interfaces and status.all_status on a stock Salt 3006 minion and a tsalt minion, both
// on one tsalt master on this machine, and the memory a job process needs for them.
// Each function runs ROUNDS times on each minion, alternating; per job: the minion tree's CPU
// (user+system of every process, reaped children included: Salt forks a process per job) and the
// wall time of `salt <id> <fn>` (CLI, master and minion; the same path for both).
// Memory: the tsalt job process's RSS/PSS after the runs; Salt's forked job process sampled
// every 10 ms while each job runs (its peak). Needs the build (dist/) and Salt's source as
// /work/shared/REAL-SALT.md describes. Run at normal priority and note the load:
//   node bench/modules-vs-salt.mjs [rounds]
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';

const D = new URL('../dist', import.meta.url).pathname;
const { Cluster } = await import(`${D}/tools/local-cluster.js`);
const { descendants, pssMiB, rssMiB } = await import(`${D}/bench/proc-stats.js`);
const ROUNDS = Number(process.argv[2] ?? 10);
// pkg.list_pkgs twice: as called (tsalt's job process keeps the list in its context between jobs,
// Salt's forked job starts without it) and with use_context=False (both read dpkg every time)
const FNS = [
  ['pkg.list_pkgs'],
  ['pkg.list_pkgs', 'use_context=False'],
  ['grains.items'],
  ['network.interfaces'],
  ['status.all_status'],
];
const PY = { ...process.env, PYTHONPATH: '/tmp/wtcli-salt/src:/tmp/wtcli-salt/shim' };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** user+system ms of `pid`, with its reaped children's. */
function cpuWithReaped(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) * 10;
  } catch {
    return 0;
  }
}
const treeCpu = (pid) => [pid, ...descendants(pid)].reduce((s, p) => s + cpuWithReaped(p), 0);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const range = (xs) => `${Math.min(...xs)}-${Math.max(...xs)}`;

const c = new Cluster({ master: { auto_accept: true } });
await c.startMaster();
const ts = await c.startMinion('ts1');
const work = mkdtempSync('/tmp/tsalt-modbench-');
const mdir = join(work, 'py1');
mkdirSync(mdir, { recursive: true });
writeFileSync(
  join(mdir, 'minion'),
  `id: py1\nmaster: 127.0.0.1\nmaster_port: ${c.retPort}\nroot_dir: ${mdir}/root\nuser: root\nacceptance_wait_time: 1\nlog_level: warning\n`,
);
let py;
try {
  py = spawn('/usr/bin/python3', ['/tmp/wtcli-salt/src/scripts/salt-minion', '-c', mdir], {
    env: PY,
    stdio: 'ignore',
  });
  for (const id of ['py1', 'ts1']) {
    const end = Date.now() + 120_000;
    while ((await c.saltJson([id, 'test.ping', '-t', '5']).catch(() => ({ data: {} }))).data[id] !== true) {
      if (Date.now() > end) throw new Error(`${id} did not answer`);
      await sleep(500);
    }
  }
  const pids = { py1: py.pid, ts1: ts.proc.pid };
  const load = [loadavg()[0]];
  const rows = [];
  const saltPeak = { rss: 0, pss: 0 };
  for (const call of FNS) {
    const fn = call.join(' ');
    for (const id of ['py1', 'ts1']) await c.saltJson([id, ...call, '-t', '60']); // warm: first job, caches
    const res = { py1: { cpu: [], wall: [] }, ts1: { cpu: [], wall: [] } };
    for (let i = 0; i < ROUNDS; i++) {
      for (const id of i % 2 ? ['ts1', 'py1'] : ['py1', 'ts1']) {
        const before = treeCpu(pids[id]);
        let sampler;
        if (id === 'py1') {
          // Salt's job runs in a process forked for it: its peak, sampled while the job runs
          sampler = setInterval(() => {
            for (const p of descendants(pids.py1)) {
              saltPeak.rss = Math.max(saltPeak.rss, rssMiB(p));
              saltPeak.pss = Math.max(saltPeak.pss, pssMiB(p));
            }
          }, 10);
        }
        const t0 = performance.now();
        const r = await c.saltJson([id, ...call, '-t', '60']);
        const wall = performance.now() - t0;
        clearInterval(sampler);
        if (r.data[id] === undefined) throw new Error(`${id} ${fn}: no return`);
        await sleep(200); // let the forked job process exit and be reaped
        res[id].cpu.push(treeCpu(pids[id]) - before);
        res[id].wall.push(Math.round(wall));
      }
    }
    load.push(loadavg()[0]);
    rows.push({ fn, ...res });
  }
  const jobs = descendants(pids.ts1);
  const tsJob = jobs.map((p) => ({ rss: rssMiB(p), pss: pssMiB(p) }));
  console.log(`rounds ${ROUNDS}; load average (1 min) ${load.map((l) => l.toFixed(1)).join(', ')}`);
  console.log(
    'function | Salt CPU ms/job | tsalt CPU ms/job | CPU ratio | Salt wall ms | tsalt wall ms | wall ratio',
  );
  for (const r of rows) {
    const [pc, tc, pw, tw] = [median(r.py1.cpu), median(r.ts1.cpu), median(r.py1.wall), median(r.ts1.wall)];
    console.log(
      `${r.fn} | ${pc} (${range(r.py1.cpu)}) | ${tc} (${range(r.ts1.cpu)}) | ${(tc / pc).toFixed(2)} | ${pw} (${range(r.py1.wall)}) | ${tw} (${range(r.ts1.wall)}) | ${(tw / pw).toFixed(2)}`,
    );
  }
  console.log(
    `tsalt job process(es) after the runs: ${tsJob.map((j) => `${j.rss.toFixed(0)} MiB RSS / ${j.pss.toFixed(0)} MiB PSS`).join('; ') || 'none alive'}; minion main ${rssMiB(pids.ts1).toFixed(0)} / ${pssMiB(pids.ts1).toFixed(0)} MiB`,
  );
  console.log(
    `Salt forked job process, peak sampled: ${saltPeak.rss.toFixed(0)} MiB RSS / ${saltPeak.pss.toFixed(0)} MiB PSS; minion main ${rssMiB(pids.py1).toFixed(0)} / ${pssMiB(pids.py1).toFixed(0)} MiB`,
  );
} finally {
  py?.kill('SIGTERM');
  await sleep(1000);
  await c.stop();
}
