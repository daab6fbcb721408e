/**
 * Issue 20's state figures, with a real master and minion on loopback driven by the `salt`
 * CLI: the first and the second `state.apply` of 100 `file.managed` states (files from the
 * master's file server into a temp dir: the first run writes them, the second finds them
 * right), a 1,000-state run (`test.succeed_with_changes` in a `require` chain) and the minion's
 * memory (PSS of the minion and its job processes, sampled every 50 ms) during it.
 * Standalone: `node dist/bench/states-bench.js`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Cluster } from '../tools/local-cluster.js';
import { treePssMiB } from './proc-stats.js';

export interface StatesBenchResult {
  firstApply100Ms: number;
  secondApply100Ms: number;
  apply1000Ms: number;
  minionPssIdleMiB: number;
  minionPssPeakMiB: number;
  states100: number;
  states1000: number;
}

function write(path: string, text: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
}

/** The SLS trees: `files100` (100 file.managed) and `chain1000` (1,000 chained test states). */
function tree(srv: string, out: string): void {
  let files = '';
  for (let i = 0; i < 100; i++) {
    write(join(srv, 'files100', 'src', `f${i}.conf`), `# file ${i}\nkey = ${'v'.repeat(i)}\n`);
    files += `f${i}:\n  file.managed:\n    - name: ${join(out, `f${i}.conf`)}\n    - source: salt://files100/src/f${i}.conf\n    - mode: '0644'\n`;
  }
  write(join(srv, 'files100', 'init.sls'), files);
  write(
    join(srv, 'chain1000', 'init.sls'),
    [
      '{% for i in range(1000) %}',
      's{{ i }}:',
      '  test.succeed_with_changes:',
      '    - name: n{{ i }}',
      '{% if i > 0 %}    - require:',
      '      - test: s{{ i - 1 }}',
      '{% endif %}{% endfor %}',
      '',
    ].join('\n'),
  );
}

async function timed(c: Cluster, sls: string): Promise<{ ms: number; ok: boolean }> {
  const t0 = performance.now();
  const r = await c.salt(['m1', 'state.apply', sls, '--out', 'quiet', '--retcode-passthrough'], 600_000);
  return { ms: performance.now() - t0, ok: r.code === 0 };
}

export async function statesBench(): Promise<StatesBenchResult> {
  const master: Record<string, unknown> = {};
  const c = new Cluster({ master, quiet: true });
  const srv = join(c.root, 'srv');
  const out = join(c.root, 'out');
  mkdirSync(out);
  tree(srv, out);
  Object.assign(master, { file_roots: { base: [srv] } });
  try {
    await c.startMaster();
    const minion = await c.startMinion('m1');
    const pid = minion.proc.pid as number;
    // a warm job process, as in a minion that has run jobs
    await c.salt(['m1', 'test.version']);
    const idle = treePssMiB(pid).mib;
    const first = await timed(c, 'files100');
    const second = await timed(c, 'files100');
    let peak = idle;
    const sampler = setInterval(() => {
      peak = Math.max(peak, treePssMiB(pid).mib);
    }, 50);
    const big = await timed(c, 'chain1000');
    clearInterval(sampler);
    if (!first.ok || !second.ok || !big.ok) throw new Error('a benchmark state run failed');
    return {
      firstApply100Ms: Math.round(first.ms),
      secondApply100Ms: Math.round(second.ms),
      apply1000Ms: Math.round(big.ms),
      minionPssIdleMiB: Math.round(idle),
      minionPssPeakMiB: Math.round(peak),
      states100: 100,
      states1000: 1000,
    };
  } finally {
    await c.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(JSON.stringify(await statesBench(), null, 2));
}
