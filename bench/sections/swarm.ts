/**
 * Issue 5's figures with the minion swarm (tools/swarm): auth storms against a fresh and a
 * restarted master with the floor under them (RSA alone), `test.ping` fan-out to every swarm
 * minion, master memory with them all.
 */

import { NEW_INODES_PER_SIGN_IN } from '../new-file-cost.js';
import { details, print, report } from '../report.js';
import { masterRsaCpuMs, PRIVATE_OPS_PER_MINION, rsaFloor } from '../rsa-floor.js';
import { authStorm, fanOut } from '../swarm-bench.js';

export async function swarmSection(quick: boolean): Promise<void> {
  for (const count of quick ? [1000] : [1000, 10_000]) {
    const n = count.toLocaleString('en-US');
    try {
      const storm = await authStorm(count, { log: print });
      details[`authStorm${count}`] = storm;
      report({
        name: `auth storm: ${n} minions, fresh master`,
        value: storm.connectedSeconds,
        unit: 's',
        goal: count === 10_000 ? '≤ 20 s' : undefined,
        method: `swarm in ${storm.procs} processes, until presence shows all connected; ${storm.errors} errors`,
      });
      const rsaMs = masterRsaCpuMs();
      report({
        name: `master CPU per sign-in, ${n} minions`,
        value: storm.masterCpuMsPerSignIn,
        unit: 'ms',
        goal: '≤ 1.5 ms',
        method: `CPU of the master's processes (/proc) from the storm's start until all are connected and their grains reports answered, over ${n}; its RSA alone, measured after it in one thread: ${rsaMs.toFixed(2)} ms; its ${NEW_INODES_PER_SIGN_IN} new files alone, measured after it in the master's folder (bench/new-file-cost.ts): ${(storm.newFileCpuMs * NEW_INODES_PER_SIGN_IN).toFixed(2)} ms; by process: ${Object.entries(
          storm.masterCpuByRole,
        )
          .map(([k, v]) => `${k} ${v.toFixed(2)}`)
          .join(', ')}`,
      });
      report({
        name: `auth storm: ${n} minions after a master restart`,
        value: storm.restartReauthSeconds,
        unit: 's',
        method: `first job after the restart until its last return (${storm.restartReturns} returns, ${storm.reauths} re-auths)`,
      });
      const floor = await rsaFloor(count);
      details[`rsaFloor${count}`] = floor;
      report({
        name: `auth storm floor: RSA alone, ${n} minions`,
        value: floor.seconds,
        unit: 's',
        method: `the ${PRIVATE_OPS_PER_MINION} private-key operations of each sign-in (3 master, 4 minion) on ${floor.threads} threads at once, nothing else (bench/rsa-floor.ts)`,
      });
      const fan = await fanOut(count, quick ? 3 : 5, { log: print });
      details[`fanOut${count}`] = fan;
      report({
        name: `test.ping fan-out to ${n} swarm minions`,
        value: fan.median,
        unit: 's',
        goal: count === 10_000 ? '≤ 1.0 s' : '≤ 0.25 s',
        min: Math.min(...fan.seconds),
        max: Math.max(...fan.seconds),
        method: `publish to last return, ${fan.runs} runs after the first (swarm workers open each publish once for their minions); returns per run: ${fan.returns.join(', ')}`,
      });
      report({
        name: `CPU per return, test.ping to ${n} swarm minions, every process`,
        value: fan.cpuUsPerReturn,
        unit: 'µs',
        method: `/proc CPU of the master's and the swarm's processes and the bench's own (its LocalClient), over the runs after the first; each swarm worker opens a publish once for its minions (tools/swarm/shared-publish.ts); by process: ${Object.entries(
          fan.cpuUsByRole,
        )
          .map(([k, v]) => `${k} ${v.toFixed(0)}`)
          .join(', ')}`,
      });
      report({
        name: `CPU per return of the request server's main thread, ${n} swarm minions`,
        value: fan.routerUsPerReturn,
        unit: 'µs',
        method: `/proc/<pid>/task/<pid>/stat over the same runs: with no more than 2 cores that one thread takes every return (master/light-lane.ts), so 10,000 returns take it at least ${(fan.routerUsPerReturn / 100).toFixed(2)} s`,
      });
      report({
        name: `first test.ping to ${n} swarm minions after the storm`,
        value: fan.firstSeconds,
        unit: 's',
        method: `publish to last return while the start-up grains reports finish; ${fan.firstReturns} returns`,
      });
      report({
        name: `master RSS with ${n} connected minions (${fan.masterProcesses} processes)`,
        value: fan.masterRssMiB,
        unit: 'MiB',
        goal: count === 10_000 ? '≤ 450 MiB' : undefined,
        method: 'sum of VmRSS of the master tree',
      });
      report({
        name: `master PSS with ${n} connected minions`,
        value: fan.masterPssMiB,
        unit: 'MiB',
        goal: count === 10_000 ? '≤ 300 MiB' : undefined,
        method: 'sum of PSS (shared pages such as the node binary counted once) of the master tree',
      });
    } catch (err) {
      print(`swarm ${n}: ${(err as Error).message}`);
    }
  }
}
