/**
 * `process.absent`, `status.loadavg` and `status.process` through `salt-call --local
 * state.apply`, on throwaway `sleep` processes renamed with a marker. Expectations: what Salt
 * 3006.18 answered for the same SLS on this machine (17 of 17 states identical over four runs;
 * load values and pids masked).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from '../../tools/local-cluster.js';
import { localApply } from '../support/local-apply.js';

const MARK = `tsaltmark-${process.pid}`;

const SLS = `
la_ok:
  status.loadavg:
    - name: 1-min
    - maximum: 100000
la_bogus:
  status.loadavg:
    - name: 2-min
    - maximum: 1
la_minmax:
  status.loadavg:
    - name: 1-min
    - minimum: 5
    - maximum: 2
la_strs:
  status.loadavg:
    - name: 15-min
    - minimum: '10000'
    - maximum: '9'
proc_found:
  status.process:
    - name: ${MARK}-st-[0-9]+
proc_missing:
  status.process:
    - name: no-such-process-${MARK}
`;

const ABSENT = `
gone:
  process.absent:
    - name: ${MARK}-pa
none:
  process.absent:
    - name: no-such-process-${MARK}
`;

describe('process and status states through salt-call --local', () => {
  const c = new Cluster();
  const srv = join(c.root, 'srv');
  const apply = localApply(c.root, 'ps1', srv);
  const children: ChildProcess[] = [];
  const sleeper = (name: string): ChildProcess => {
    const child = spawn('sleep', ['600'], { argv0: name, stdio: 'ignore' });
    children.push(child);
    return child;
  };

  beforeAll(() => {
    mkdirSync(srv, { recursive: true });
    writeFileSync(join(srv, 'st.sls'), SLS);
    writeFileSync(join(srv, 'pa.sls'), ABSENT);
  });
  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await c.stop();
  });

  it('checks load averages and processes', async () => {
    sleeper(`${MARK}-st-1`);
    const r = await apply('st');
    const said = (id: string) => [r[id]?.result, r[id]?.comment];
    expect(said('la_ok')).toEqual([true, 'Load avg in acceptable range']);
    expect(said('la_bogus')).toEqual([false, 'Requested load average 2-min not available ']);
    expect(said('la_minmax')).toEqual([false, 'Min must be less than max']);
    // '10000' >= '9' is a string comparison in Salt (false), so the minimum is checked
    expect(r.la_strs?.comment).toMatch(/^Load avg is below minimum of 10000 at \d+\.\d+$/);
    expect(said('proc_found')).toEqual([true, `Process signature "${MARK}-st-[0-9]+" was found `]);
    expect(said('proc_missing')).toEqual([false, `Process signature "no-such-process-${MARK}" not found `]);
  }, 60_000);

  it('kills the matching processes, and only counts under test=True', async () => {
    const victims = [sleeper(`${MARK}-pa`), sleeper(`${MARK}-pa`)];
    const exited = victims.map((v) => new Promise((resolve) => v.once('exit', resolve)));
    // Salt's test=True asks pgrep without -f: the renamed command line does not match
    const t = await apply('pa', 'test=True');
    expect([t.gone?.result, t.gone?.comment]).toEqual([null, 'No matching processes running']);
    const r = await apply('pa');
    expect([r.gone?.result, r.gone?.comment]).toEqual([true, 'Killed 2 processes']);
    expect([...((r.gone?.changes.killed as number[] | undefined) ?? [])].sort()).toEqual(
      victims.map((v) => v.pid).sort(),
    );
    expect([r.none?.result, r.none?.comment, r.none?.changes]).toEqual([
      true,
      'No matching processes running',
      {},
    ]);
    await Promise.all(exited);
  }, 60_000);
});
