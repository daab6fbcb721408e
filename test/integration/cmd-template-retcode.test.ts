/**
 * `cmd.* template=jinja` renders the command (and cmd.script the script) before it runs, and a
 * command a module runs through `cmd` sets the job's retcode as Salt's `__context__["retcode"]`
 * does (the last command counts; `ignore_retcode` gives 0): through salt-call --local and
 * through a real master and minion. Expectations: Salt 3006.18 on this machine.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster, type RunResult, runCli } from '../../tools/local-cluster.js';

/** `inner.*`: functions that run commands through cmd and return normally, as Salt modules do. */
const INNER_MODULE = `export default { name: 'inner', functions: {
  fails: { run: async (ctx) => { await ctx.call('cmd.run', ['sh -c "exit 3"']); return 'done'; } },
  recovers: { run: async (ctx) => {
    await ctx.call('cmd.run', ['sh -c "exit 3"']);
    await ctx.call('cmd.run_all', ['true']);
    return 'done';
  } },
  ignored: { run: async (ctx) => {
    await ctx.call('cmd.run', ['sh -c "exit 3"'], { ignore_retcode: true });
    return 'done';
  } },
} };
`;

describe('cmd template= and the retcode of commands run inside a function', () => {
  const c = new Cluster();
  const moduleDir = join(c.root, 'ext-modules');
  const srv = join(c.root, 'srv');
  const local = join(c.root, 'local-etc');
  const saltCall = (args: string[]): Promise<RunResult> =>
    runCli('salt-call', ['-c', local, '--local', '--out', 'json', ...args], 60_000);
  const value = (r: RunResult): unknown => (JSON.parse(r.stdout) as { local: unknown }).local;

  beforeAll(async () => {
    mkdirSync(moduleDir, { recursive: true });
    writeFileSync(join(moduleDir, 'inner.mjs'), INNER_MODULE);
    mkdirSync(join(srv, 'salt'), { recursive: true });
    mkdirSync(join(srv, 'pillar'), { recursive: true });
    writeFileSync(join(srv, 'pillar', 'top.sls'), "base:\n  '*':\n    - data\n");
    writeFileSync(join(srv, 'pillar', 'data.sls'), 'greeting: hello\nnums: [1, 2, 3]\n');
    writeFileSync(
      join(srv, 'salt', 'hello.sh'),
      "#!/bin/sh\necho \"id={{ grains['id'] }} p={{ pillar['greeting'] }} args=$*\"\n",
    );
    mkdirSync(local, { recursive: true });
    writeFileSync(
      join(local, 'minion'),
      `${[
        'id: tpl1',
        'file_client: local',
        `root_dir: ${join(c.root, 'local-root')}`,
        `file_roots: {base: [${join(srv, 'salt')}]}`,
        `pillar_roots: {base: [${join(srv, 'pillar')}]}`,
        `module_dirs: [${moduleDir}]`,
        'log_level: quiet',
      ].join('\n')}\n`,
    );
    await c.startMaster();
    await c.startMinion('m1', { module_dirs: [moduleDir] });
  }, 90_000);
  afterAll(() => c.stop());

  it('renders the command and cwd with grains, pillar, pillar=, opts and salt[...]', async () => {
    const r = await saltCall([
      'cmd.run',
      'echo {{ grains.id }} {{ pillar.greeting }} {{ opts.id }} {{ salt["test.echo"]("yo") }}',
      'template=jinja',
    ]);
    expect(r.code).toBe(0);
    expect(value(r)).toBe('tpl1 hello tpl1 yo');
    const over = await saltCall([
      'cmd.run',
      'echo {{ pillar.greeting }} {{ pillar.x }}; pwd',
      'cwd=/{{ "tmp" }}',
      'template=jinja',
      'pillar={x: 1}',
    ]);
    expect(value(over)).toBe('hello 1\n/tmp');
    const rc = await saltCall(['--retcode-passthrough', 'cmd.retcode', 'exit {{ 2 + 2 }}', 'template=jinja']);
    expect([value(rc), rc.code]).toEqual([4, 4]);
  });

  it("an engine Salt does not have gives Salt's error; a list command is Salt's TypeError", async () => {
    const r = await saltCall(['cmd.run', 'echo hi', 'template=nope']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      "Error running 'cmd.run': Attempted to render file paths with unavailable engine nope",
    );
    const list = await saltCall(['cmd.run', '["echo", "hi"]', 'template=jinja']);
    expect(list.code).toBe(1);
    expect(list.stdout + list.stderr).toContain(
      "Passed invalid arguments: expected str, bytes, or bytearray not <class 'list'>.",
    );
  });

  it('cmd.script renders the script itself', async () => {
    const r = await saltCall(['cmd.script', 'salt://hello.sh', 'a b', 'template=jinja']);
    expect(value(r)).toMatchObject({ retcode: 0, stdout: 'id=tpl1 p=hello args=a b', stderr: '' });
  });

  it('salt-call: the last command a function ran through cmd sets the retcode', async () => {
    const code = async (fun: string) => (await saltCall(['--retcode-passthrough', fun])).code;
    expect(await code('inner.fails')).toBe(3);
    expect(await code('inner.recovers')).toBe(0);
    expect(await code('inner.ignored')).toBe(0);
    // built-ins that run their program directly leave its exit code as Salt's cmd calls do
    const rc = async (...args: string[]) => (await saltCall(['--retcode-passthrough', ...args])).code;
    expect(await rc('pkg.owner', '/nonexistent/tsalt')).toBe(1);
    expect(await rc('pkg.owner', '/nonexistent/tsalt', '/bin/ls')).toBe(0);
    expect(await rc('disk.blkid', '/dev/tsalt-nosuch')).toBe(2);
    // Debian's sysvinit backend (systemd not PID 1, as in a container) reads the runlevel through
    // cmd.run and acts through cmd.retcode, as Salt's: their exit codes are the job's (Salt
    // 3006.18 here: available/get_all/enabled 1 from `runlevel`, status 0, start 1)
    const level = spawnSync('runlevel');
    if (!existsSync('/run/systemd/system') && existsSync('/etc/debian_version') && !level.error) {
      expect(await rc('service.available', 'tsalt-nosuch')).toBe(level.status);
      expect(await rc('service.get_all')).toBe(level.status);
      expect(await rc('service.enabled', 'tsalt-nosuch')).toBe(level.status);
      expect(await rc('service.status', 'tsalt-nosuch')).toBe(0);
      expect(await rc('service.start', 'tsalt-nosuch')).not.toBe(0);
    }
  });

  it('over a master: the job return carries that retcode', async () => {
    for (const [fun, want] of [
      ['inner.fails', 3],
      ['inner.recovers', 0],
    ] as const) {
      const r = await c.salt(['--async', 'm1', fun]);
      const jid = /Executed command with job ID: (\d+)/.exec(r.stdout)?.[1];
      if (!jid) throw new Error(`no jid: ${r.stdout}${r.stderr}`);
      const stored = await c.jobReturns(jid, (s) => 'm1' in s, 30_000);
      expect(stored.m1).toMatchObject({ return: 'done', retcode: want });
    }
    const plain = await c.saltJson(['m1', 'inner.fails']);
    expect([plain.data.m1, plain.code]).toEqual(['done', 1]);
  });
});
