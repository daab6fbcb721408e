/**
 * The `supervisord` execution module and states through salt-call --local against a throwaway
 * supervisord (its own config, socket and programs). Expectations: Salt 3006.18 on this machine
 * (44 of 44 calls identical in /tmp/lead14/sup/cmp.py's sequence).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { which } from '../../modules/_which.js';
import { type RunResult, runCli } from '../../tools/local-cluster.js';

type StateRet = { result: boolean | null; changes: Record<string, string>; comment: string };

describe.skipIf(!which('supervisord') || !which('supervisorctl'))('supervisord module and states', () => {
  const root = mkdtempSync(join(tmpdir(), 'tsalt-sup-'));
  const conf = join(root, 'supervisord.conf');
  const c = `conf_file=${conf}`;
  const saltCall = (args: string[]): Promise<RunResult> =>
    runCli('salt-call', ['-c', join(root, 'etc'), '--local', '--out', 'json', ...args], 60_000);
  const value = async (args: string[]): Promise<unknown> =>
    (JSON.parse((await saltCall(args)).stdout) as { local: unknown }).local;
  const state = async (sls: string, ...more: string[]): Promise<StateRet> =>
    Object.values((await value(['state.apply', sls, ...more])) as Record<string, StateRet>)[0] as StateRet;

  beforeAll(() => {
    for (const d of ['etc', 'srv', 'conf.d']) mkdirSync(join(root, d));
    const program = (name: string, n: number) =>
      `[program:${name}]\ncommand=sleep ${1000 + n}\nautostart=false\nstartsecs=0\nstopwaitsecs=1\n`;
    writeFileSync(
      conf,
      [
        `[unix_http_server]\nfile=${root}/sock\n`,
        `[supervisord]\nlogfile=${root}/supervisord.log\npidfile=${root}/supervisord.pid\nchildlogdir=${root}\n`,
        '[rpcinterface:supervisor]\nsupervisor.rpcinterface_factory = supervisor.rpcinterface:make_main_rpcinterface\n',
        `[supervisorctl]\nserverurl=unix://${root}/sock\n`,
        `[include]\nfiles = ${root}/conf.d/*.conf\n`,
      ].join('\n'),
    );
    writeFileSync(
      join(root, 'conf.d', 'a.conf'),
      `${program('alpha', 0)}priority = 5 ; first\n\n[group:grp]\nprograms=g1,g2\n\n${program('g1', 1)}\n${program('g2', 2)}`,
    );
    const sls = (name: string, body: string) => writeFileSync(join(root, 'srv', `${name}.sls`), body);
    sls('run_grp', `grp:*:\n  supervisord.running:\n    - conf_file: ${conf}\n`);
    sls('run_beta', `beta:\n  supervisord.running:\n    - conf_file: ${conf}\n`);
    sls('dead_grp', `grp::\n  supervisord.dead:\n    - conf_file: ${conf}\n`);
    writeFileSync(
      join(root, 'etc', 'minion'),
      `id: sup1\nfile_client: local\nroot_dir: ${join(root, 'root')}\nfile_roots: {base: [${join(root, 'srv')}]}\nlog_level: quiet\n`,
    );
    const started = spawnSync('supervisord', ['-c', conf]);
    if (started.status !== 0) throw new Error(`supervisord: ${started.stderr}`);
  });
  afterAll(() => {
    try {
      process.kill(Number(readFileSync(join(root, 'supervisord.pid'), 'utf8')));
    } catch {}
    rmSync(root, { recursive: true, force: true });
  });

  it("starts, stops and reads programs with supervisorctl's words", async () => {
    const until = Date.now() + 10_000;
    while (!existsSync(join(root, 'sock')) && Date.now() < until)
      await new Promise((r) => setTimeout(r, 100));
    expect(await value(['supervisord.start', 'alpha', c])).toBe('alpha: started');
    expect(await value(['supervisord.start', 'alpha', c])).toBe('alpha: ERROR (already started)');
    expect(await value(['supervisord.status_bool', 'alpha', 'expected_state=RUNNING', c])).toBe(true);
    expect(await value(['supervisord.status', 'alpha', c])).toEqual({
      alpha: { state: 'RUNNING', reason: expect.stringMatching(/^pid \d+, uptime /) },
    });
    expect(await value(['supervisord.stop', 'alpha', c])).toBe('alpha: stopped');
    expect(await value(['supervisord.start', 'nope', c])).toBe('nope: ERROR (no such process)');
    // Salt's ConfigParser does not follow [include]: the program is read from the file that has it
    const opts = ['supervisord.options', 'alpha', `conf_file=${join(root, 'conf.d', 'a.conf')}`];
    expect(await value(opts)).toEqual({
      command: 'sleep 1000',
      autostart: false,
      startsecs: 0,
      stopwaitsecs: 1,
      priority: 5,
    });
    const missing = await saltCall(['supervisord.options', 'alpha', c]);
    expect(missing.stderr).toContain("Error running 'supervisord.options': Process 'alpha' not found");
  });

  it('supervisord.running and dead: a group, a program added after a reread', async () => {
    expect(await state('run_grp', 'test=True')).toMatchObject({
      result: null,
      comment: "All services in group 'grp:' will be started",
    });
    expect(await state('run_grp')).toMatchObject({
      result: true,
      changes: { 'grp:': 'Starting group: grp:' },
    });
    expect(await state('run_grp', 'test=True')).toMatchObject({
      result: true,
      comment: "All services in group 'grp:' are already running",
    });
    writeFileSync(
      join(root, 'conf.d', 'b.conf'),
      '[program:beta]\ncommand=sleep 1003\nautostart=false\nstartsecs=0\n',
    );
    expect(await state('run_beta', 'test=True')).toMatchObject({
      result: null,
      comment: 'Service beta will be added and started',
    });
    expect(await state('run_beta')).toMatchObject({
      result: true,
      changes: { beta: 'Adding service: beta Starting: beta' },
    });
    expect(await state('dead_grp')).toMatchObject({
      result: true,
      changes: { 'grp:': 'Stopping service: grp:' },
    });
    // supervisorctl exits 3 when a program is not running: Salt's module marks its output ERROR
    expect(await value(['supervisord.status_raw', 'grp:g1', c])).toMatch(/^ERROR: grp:g1\s+STOPPED/);
  });
});
