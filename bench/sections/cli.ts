/**
 * The command-line figures (issues 2, 3 and 5): cold starts, `salt '*' test.ping` to 1 and 10
 * real minions, sequential jobs/s, idle memory, `salt-call --local`, a compound target.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Cluster, REPO } from '../../tools/local-cluster.js';
import { cpuBesideNode } from '../cli-cpu.js';
import { type JobsPlan, jobsPerSecond, withMinions } from '../cli-jobs.js';
import { rssMiB, treeRssMiB } from '../proc-stats.js';
import { report, reportTimes, stats, timeCommand } from '../report.js';

/**
 * A CLI run's CPU above `node -e 0`, the two run in turn (bench/cli-cpu.ts): `salt '*'
 * test.ping` (with its goal), `salt-key -L` and `salt-run test.arg 1`.
 */
function cliCpuAboveNode(confDir: string, runs: number): void {
  const commands: [string, string[], string, string?][] = [
    ['salt', ['*', 'test.ping'], "salt '*' test.ping", '≤ 30 ms'],
    ['salt-key', ['-L'], 'salt-key -L'],
    ['salt-run', ['test.arg', '1'], 'salt-run test.arg 1'],
  ];
  for (const [cli, args, label, goal] of commands) {
    const cpu = cpuBesideNode([join(REPO, 'bin', cli), '-c', confDir, ...args], runs);
    if (!cpu) return;
    const above = stats(cpu.cmd).median - stats(cpu.node).median;
    report({
      name: `  ${label} CPU above node -e 0`,
      value: above,
      unit: 'ms',
      ...(goal && { goal }),
      method: `median user + system CPU (bash's times) of bin/${cli}, ${stats(cpu.cmd).median.toFixed(0)} ms, minus node -e 0's, ${stats(cpu.node).median.toFixed(0)} ms, ${runs} runs each in turn`,
    });
  }
}

export async function cliSection(quick: boolean): Promise<void> {
  const runs = quick ? 3 : 10;
  reportTimes(
    { name: 'node -e 0 (baseline: Node itself)', unit: 's', method: `node -e 0, ${runs} runs` },
    timeCommand(['-e', '0'], runs),
  );
  reportTimes(
    {
      name: 'salt --version (cold start)',
      unit: 's',
      salt: 0.21,
      goal: '≤ 0.08 s',
      method: `bin/salt --version, ${runs} runs`,
    },
    timeCommand([join(REPO, 'bin/salt'), '--version'], runs),
  );

  for (const n of [1, 10]) {
    await withMinions(n, async (c) => {
      reportTimes(
        {
          name: `salt '*' test.ping, ${n} minion${n > 1 ? 's' : ''} (wall)`,
          unit: 's',
          salt: n === 1 ? 0.56 : 0.92,
          ...(n === 1 && { goal: '≤ 0.15 s' }),
          method: `bin/salt -c DIR '*' test.ping, ${runs} runs`,
        },
        timeCommand([join(REPO, 'bin/salt'), '-c', c.confDir, '*', 'test.ping'], runs),
      );
      if (n === 1) cliCpuAboveNode(c.confDir, runs * 2);
      const plan: JobsPlan = quick
        ? { seconds: 2, warmupSeconds: 8, windows: 3 }
        : { seconds: 4, warmupSeconds: 16, windows: 5 };
      const jobs = await jobsPerSecond(c, n, plan);
      const minions = `${n} minion${n > 1 ? 's' : ''}`;
      reportTimes(
        {
          name: `sequential jobs/s to ${minions}`,
          unit: 'jobs/s',
          salt: n === 1 ? 5.4 : 1.9,
          ...(n === 10 && { goal: '≥ 400' }),
          method: `LocalClient publish + collect all returns, one job at a time; ${plan.windows} windows of ${plan.seconds} s after ${plan.seconds + plan.warmupSeconds} s of jobs (the JIT warm-up)`,
        },
        jobs.warm,
      );
      report({
        name: `  CPU per job to ${minions}, all processes`,
        unit: 'ms',
        value: jobs.cpu.total,
        method: `/proc CPU over the steady windows: ${Object.entries(jobs.cpu.byRole)
          .map(([k, v]) => `${k} ${v.toFixed(2)}`)
          .join(', ')}`,
      });
      report({
        name: `  the same, first ${plan.seconds} s after start (cold)`,
        unit: 'jobs/s',
        value: jobs.cold,
        method: `the first window of ${plan.seconds} s, master and minions just started`,
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
          name: `idle minion RSS (with ${tree.processes - 1} job process${tree.processes === 2 ? '' : 'es'})`,
          value: tree.mib,
          unit: 'MiB',
          method: 'sum of VmRSS of the minion and its job processes (test.ping runs in the main process)',
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
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'minion'), `id: caller\nroot_dir: ${join(c.root, 'minions/caller')}\n`);
      timeCommand([join(REPO, 'bin/salt-call'), '-c', dir, '--local', 'test.ping'], 1);
      reportTimes(
        {
          name: 'salt-call --local test.ping (cold start)',
          unit: 's',
          method: `bin/salt-call --local, ${runs} runs`,
        },
        timeCommand([join(REPO, 'bin/salt-call'), '-c', dir, '--local', 'test.ping'], runs),
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
      reportTimes(
        {
          name: "salt -C 'G@role:web or G@rack:r0' test.ping, 50 minions (30 match)",
          unit: 's',
          method: `bin/salt, ${runs} runs, 50 real minion processes`,
        },
        timeCommand(args, runs),
      );
    } finally {
      await c.stop();
    }
  }
}
