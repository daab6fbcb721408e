/**
 * `npm run bench`: the kernel issue's figures, measured on this machine with real processes on
 * loopback, printed with their method. Never fails on a figure; leaves no process behind.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { LocalClient } from '../kernel/client/local-client.js';
import { loadConfig } from '../kernel/config/index.js';
import { Cluster, REPO } from '../tools/local-cluster.js';
import { rssMiB, treeRssMiB } from './proc-stats.js';

interface Figure {
  name: string;
  value: number;
  unit: string;
  method: string;
  salt?: number;
}

const quick = process.argv.includes('--quick');
const figures: Figure[] = [];

function stats(xs: number[]): { min: number; median: number; max: number } {
  const s = [...xs].sort((a, b) => a - b);
  return { min: s[0] ?? 0, median: s[Math.floor(s.length / 2)] ?? 0, max: s[s.length - 1] ?? 0 };
}

function timeCommand(args: string[], runs: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint();
    const r = spawnSync(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    if (r.status !== 0 && !args.includes('--version')) {
      process.stderr.write(`command failed (${r.status}): ${args.join(' ')}\n${r.stdout}${r.stderr}\n`);
    }
    out.push(ms / 1000);
  }
  return out;
}

function report(f: Figure, extra = ''): void {
  figures.push(f);
  const salt = f.salt !== undefined ? `  (Salt 3006: ${f.salt} ${f.unit})` : '';
  process.stdout.write(
    `${f.name.padEnd(44)} ${f.value.toFixed(f.unit === 'MiB' ? 0 : 3).padStart(9)} ${f.unit.padEnd(7)}${salt}${extra}\n`,
  );
}

async function jobsPerSecond(c: Cluster, expected: number, seconds: number): Promise<number> {
  const { config } = await loadConfig('master', c.confDir);
  const client = new LocalClient(config);
  await client.listen();
  let jobs = 0;
  const t0 = Date.now();
  while (Date.now() - t0 < seconds * 1000) {
    const pub = await client.publish({ tgt: '*', fun: 'test.ping', arg: [] });
    let got = 0;
    for await (const r of client.collect(pub, { timeout: 10, gatherJobTimeout: 5 })) if ('ret' in r) got++;
    if (got !== expected) process.stderr.write(`job ${pub.jid}: ${got}/${expected} returns\n`);
    jobs++;
  }
  await client.close();
  return jobs / ((Date.now() - t0) / 1000);
}

async function withMinions(n: number, body: (c: Cluster) => Promise<void>): Promise<void> {
  // Salt's defaults where they matter: console logging at warning, 5 request workers.
  const c = new Cluster({ quiet: true, master: { worker_threads: 5 } });
  try {
    await c.startMaster();
    await Promise.all(Array.from({ length: n }, (_, i) => c.startMinion(`bench${i}`)));
    await c.salt(['*', 'test.ping']);
    await body(c);
  } finally {
    await c.stop();
  }
}

const runs = quick ? 3 : 10;
process.stdout.write(
  `tsalt benchmark (${quick ? 'quick' : 'full'}): ${runs} runs per timing, median shown\n`,
);
process.stdout.write(`node ${process.version}, ${(await import('node:os')).cpus().length} cores\n\n`);

const nodeBaseline = stats(timeCommand(['-e', '0'], runs));
report({
  name: 'node -e 0 (baseline: Node itself)',
  value: nodeBaseline.median,
  unit: 's',
  method: `node -e 0, ${runs} runs`,
});
const version = stats(timeCommand([join(REPO, 'bin/salt'), '--version'], runs));
report(
  {
    name: 'salt --version (cold start)',
    value: version.median,
    unit: 's',
    salt: 0.21,
    method: `bin/salt --version, ${runs} runs`,
  },
  `  [min ${version.min.toFixed(3)} max ${version.max.toFixed(3)}]`,
);

for (const n of [1, 10]) {
  await withMinions(n, async (c) => {
    const t = stats(timeCommand([join(REPO, 'bin/salt'), '-c', c.confDir, '*', 'test.ping'], runs));
    report(
      {
        name: `salt '*' test.ping, ${n} minion${n > 1 ? 's' : ''} (wall)`,
        value: t.median,
        unit: 's',
        salt: n === 1 ? 0.56 : 0.92,
        method: `bin/salt -c DIR '*' test.ping, ${runs} runs`,
      },
      `  [min ${t.min.toFixed(3)} max ${t.max.toFixed(3)}]`,
    );
    const jps = await jobsPerSecond(c, n, quick ? 3 : 10);
    report({
      name: `sequential jobs/s to ${n} minion${n > 1 ? 's' : ''}`,
      value: jps,
      unit: 'jobs/s',
      salt: n === 1 ? 5.4 : 1.9,
      method: 'LocalClient publish + collect all returns, one job at a time',
    });
    if (n === 1) {
      await new Promise((r) => setTimeout(r, 2000));
      const master = treeRssMiB(c.master!.proc.pid!);
      report({
        name: `idle master RSS (${master.processes} processes)`,
        value: master.mib,
        unit: 'MiB',
        salt: 795,
        method: 'sum of VmRSS of the master and all its children',
      });
      const minion = c.minions.get('bench0')!;
      const tree = treeRssMiB(minion.proc.pid!);
      report({
        name: 'idle minion RSS (main process)',
        value: rssMiB(minion.proc.pid!),
        unit: 'MiB',
        salt: 66,
        method: 'VmRSS of the salt-minion process',
      });
      report({
        name: `idle minion RSS (with ${tree.processes - 1} warm job process)`,
        value: tree.mib,
        unit: 'MiB',
        method: 'sum of VmRSS of the minion and its job processes',
      });
    }
  });
}

// salt-call --local: a minion-side CLI run with no master at all
{
  const c = new Cluster({ quiet: true });
  try {
    await c.writeMasterConfig();
    const dir = c.minionConfDir('caller');
    (await import('node:fs')).mkdirSync(dir, { recursive: true });
    (await import('node:fs')).writeFileSync(
      join(dir, 'minion'),
      `id: caller\nroot_dir: ${join(c.root, 'minions/caller')}\n`,
    );
    timeCommand([join(REPO, 'bin/salt-call'), '-c', dir, '--local', 'test.ping'], 1);
    const t = stats(timeCommand([join(REPO, 'bin/salt-call'), '-c', dir, '--local', 'test.ping'], runs));
    report(
      {
        name: 'salt-call --local test.ping (cold start)',
        value: t.median,
        unit: 's',
        method: `bin/salt-call --local, ${runs} runs`,
      },
      `  [min ${t.min.toFixed(3)} max ${t.max.toFixed(3)}]`,
    );
  } finally {
    await c.stop();
  }
}

// a compound target over 50 real minions with distinct grains (full run only)
if (!quick) {
  const c = new Cluster({ quiet: true, master: { worker_threads: 5 } });
  try {
    await c.startMaster();
    for (let i = 0; i < 50; i += 10) {
      await Promise.all(
        Array.from({ length: 10 }, (_, k) => i + k).map((n) =>
          c.startMinion(`c${n}`, { grains: { role: n % 2 ? 'web' : 'db', rack: `r${n % 5}` } }),
        ),
      );
    }
    const args = [join(REPO, 'bin/salt'), '-c', c.confDir, '-C', 'G@role:web or G@rack:r0', 'test.ping'];
    timeCommand(args, 1);
    const t = stats(timeCommand(args, runs));
    report(
      {
        name: "salt -C 'G@role:web or G@rack:r0' test.ping, 50 minions (30 match)",
        value: t.median,
        unit: 's',
        method: `bin/salt, ${runs} runs, 50 real minion processes`,
      },
      `  [min ${t.min.toFixed(3)} max ${t.max.toFixed(3)}]`,
    );
  } finally {
    await c.stop();
  }
}

const out = join(REPO, `bench-results${quick ? '-quick' : ''}.json`);
(await import('node:fs')).writeFileSync(
  out,
  `${JSON.stringify({ date: new Date().toISOString(), node: process.version, figures }, null, 2)}\n`,
);
process.stdout.write(`\nwritten to ${out}\n`);
