/**
 * A CLI run's CPU beside Node's own start: `node <args>` and `node -e 0` run in turn, each one's
 * user + system CPU (every thread) read from bash's `times` at 1 ms resolution. CPU, unlike wall
 * time, holds still on a loaded machine (issue 25's "above `node -e 0` measured beside it").
 */
import { spawnSync } from 'node:child_process';

/** `times`' second line: the children's user and system time, `0m0.052s 0m0.012s`. */
function childCpuMs(timesOutput: string): number | undefined {
  const line = timesOutput.trim().split('\n')[1] ?? '';
  const parts = [...line.matchAll(/(\d+)m([\d.]+)s/g)].map(
    (m) => Number(m[1]) * 60_000 + Number(m[2]) * 1000,
  );
  return parts.length === 2 ? (parts[0] ?? 0) + (parts[1] ?? 0) : undefined;
}

function runCpuMs(args: readonly string[]): number | undefined {
  const r = spawnSync('bash', ['-c', '"$@" >/dev/null 2>&1; times', 'bash', process.execPath, ...args], {
    encoding: 'utf8',
  });
  return r.status === 0 ? childCpuMs(r.stdout) : undefined;
}

/** CPU ms of each run of `node <args>` and of `node -e 0` beside it, alternating; undefined without bash. */
export function cpuBesideNode(
  args: readonly string[],
  runs: number,
): { node: number[]; cmd: number[] } | undefined {
  const node: number[] = [];
  const cmd: number[] = [];
  for (let i = 0; i < runs; i++) {
    const pair = i % 2 === 0 ? [args, ['-e', '0']] : [['-e', '0'], args];
    for (const a of pair) {
      const ms = runCpuMs(a);
      if (ms === undefined) return undefined;
      (a === args ? cmd : node).push(ms);
    }
  }
  return { node, cmd };
}
