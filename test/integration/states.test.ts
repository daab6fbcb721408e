/**
 * The state system end to end: a real master serving SLS files and a top file, a real minion
 * compiling and applying them (`state.apply`, `state.sls`, `state.highstate`, `test=True`, the
 * `show_*` functions), Salt's retcodes (2 for a failed state, 1 for an SLS that does not
 * compile, with the file and line), the lock against a second run, a state module synced from
 * `salt://_states`, and orchestration from `salt-run state.orchestrate`.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from '../../tools/local-cluster.js';

function write(path: string, text: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
}

type Entry = Record<string, unknown> & { result: boolean | null; __run_num__: number; comment: string };

describe('states', () => {
  const master: Record<string, unknown> = {};
  const c = new Cluster({ master });
  const srv = join(c.root, 'srv', 'salt');

  const holdCommand = (name: string): string => {
    const mark = join(c.root, `${name}.started`);
    const release = join(c.root, `${name}.release`);
    return `touch ${mark}; for i in $(seq 600); do [ -e ${release} ] && break; sleep 0.1; done`;
  };
  /** Waits until the held state `name` has started; `release()` lets it finish. */
  const held = async (name: string) => {
    const mark = join(c.root, `${name}.started`);
    for (let i = 0; i < 300 && !existsSync(mark); i++) await new Promise((r) => setTimeout(r, 100));
    expect(existsSync(mark)).toBe(true);
    return { release: () => write(join(c.root, `${name}.release`), '') };
  };
  const apply = async (...args: string[]) => {
    const r = await c.saltJson(['m1', ...args]);
    return { code: r.code, ret: r.data.m1 as Record<string, Entry> | string[] };
  };

  beforeAll(async () => {
    write(join(srv, 'top.sls'), "base:\n  '*':\n    - web\n  'nomatch*':\n    - never\n");
    write(
      join(srv, 'web', 'init.sls'),
      [
        'include:',
        '  - .conf',
        'first:',
        '  test.succeed_without_changes:',
        '    - comment: one',
        'second:',
        '  test.succeed_with_changes:',
        '    - require:',
        '      - test: conf_ok',
        '',
      ].join('\n'),
    );
    write(join(srv, 'web', 'conf.sls'), "conf_ok:\n  test.nop:\n    - name: {{ grains['id'] }}-conf\n");
    write(
      join(srv, 'fails.sls'),
      'bad:\n  test.fail_without_changes: []\nafter:\n  test.succeed_without_changes:\n    - require:\n      - test: bad\n',
    );
    write(join(srv, 'broken.sls'), 'ok:\n  test.nop: []\n{{ nosuch.attr }}\n');
    // a state that says it started, then holds until the test releases it (at most 60 s)
    const hold = (name: string): string =>
      `wait:\n  cmd.run:\n    - name: ${JSON.stringify(holdCommand(name))}\n`;
    write(join(srv, 'slow.sls'), hold('slow'));
    write(join(srv, 'killme.sls'), `${hold('killme')}next:\n  test.nop: []\nlast:\n  test.nop: []\n`);
    write(
      join(srv, '_states', 'hello.mjs'),
      [
        '// a plain object: defineStateModule only types it',
        'export default {',
        "  name: 'hello',",
        '  functions: {',
        '    world: {',
        '      varkw: true,',
        "      run: (ctx, _a, extra) => ({ name: String(extra.kwargs.name), result: ctx.test ? null : true, changes: ctx.test ? {} : { greeted: extra.kwargs.name }, comment: 'hello ' + extra.kwargs.name }),",
        '    },',
        '  },',
        '};',
        '',
      ].join('\n'),
    );
    write(join(srv, 'greet.sls'), 'greet:\n  hello.world:\n    - name: you\n');
    write(join(srv, 'orch', 'greet.sls'), 'greet_master:\n  hello.world:\n    - name: master\n');
    write(
      join(srv, 'orch', 'deploy.sls'),
      [
        'ping:',
        '  salt.function:',
        '    - name: test.ping',
        '    - tgt: m1',
        'apply_web:',
        '  salt.state:',
        '    - tgt: m1',
        '    - sls: web',
        '    - require:',
        '      - salt: ping',
        'keys:',
        '  salt.wheel:',
        '    - name: key.list_all',
        '',
      ].join('\n'),
    );
    // Salt's fail_function: an execution function given each minion's return decides success
    write(
      join(srv, 'orch', 'failfn.sls'),
      [
        'judged:',
        '  salt.function:',
        '    - name: cmd.run',
        '    - tgt: m1',
        "    - arg: ['true']",
        '    - fail_function: test.echo',
        'unjudged:',
        '  salt.function:',
        '    - name: cmd.run',
        '    - tgt: m1',
        "    - arg: ['true']",
        '',
      ].join('\n'),
    );
    write(
      join(c.root, 'reactor', 'deploy.sls'),
      'deploy:\n  runner.state.orchestrate:\n    - args:\n      - mods: orch.touch\n',
    );
    write(
      join(srv, 'orch', 'touch.sls'),
      `touch_it:\n  salt.function:\n    - name: cmd.run\n    - tgt: m1\n    - arg:\n      - touch ${join(c.root, 'reacted')}\n`,
    );
    Object.assign(master, {
      file_roots: { base: [srv] },
      reactor: [{ 'tsalt/test/deploy': [join(c.root, 'reactor', 'deploy.sls')] }],
    });
    await c.startMaster();
    await c.startMinion('m1');
  }, 90_000);
  afterAll(() => c.stop());

  it('applies an SLS with its include and requisites, in Salt order, and sets retcode 0', async () => {
    const { code, ret } = await apply('state.apply', 'web');
    expect(code).toBe(0);
    const r = ret as Record<string, Entry>;
    expect(Object.keys(r).sort()).toEqual([
      'test_|-conf_ok_|-m1-conf_|-nop',
      'test_|-first_|-first_|-succeed_without_changes',
      'test_|-second_|-second_|-succeed_with_changes',
    ]);
    expect(r['test_|-first_|-first_|-succeed_without_changes']).toMatchObject({
      result: true,
      comment: 'one',
      changes: {},
      __id__: 'first',
      __sls__: 'web',
    });
    const second = r['test_|-second_|-second_|-succeed_with_changes']!;
    expect(second.changes).toEqual({ testing: { old: 'Unchanged', new: 'Something pretended to change' } });
    expect(typeof second.duration).toBe('number');
    expect(second.start_time).toMatch(/^\d\d:\d\d:\d\d\.\d{6}$/);
    // the include comes first: Salt orders an included SLS before the file that includes it
    expect(r['test_|-conf_ok_|-m1-conf_|-nop']!.__run_num__).toBe(0);
  });

  it('predicts under test=True with result None and changes nothing', async () => {
    const { code, ret } = await apply('state.apply', 'web', 'test=True');
    expect(code).toBe(0);
    const second = (ret as Record<string, Entry>)['test_|-second_|-second_|-succeed_with_changes']!;
    expect(second.result).toBeNull();
    expect(second.comment).toBe("If we weren't testing, this would be successful with changes");
  });

  it('runs the highstate from the top file', async () => {
    const { code, ret } = await apply('state.highstate');
    expect(code).toBe(0);
    expect(Object.keys(ret)).toHaveLength(3);
    expect((await apply('state.show_top')).ret).toEqual({ base: ['web'] });
    expect((await apply('state.show_highstate')).code).toBe(0);
    // no high data: Salt's check_result fails it (retcode 2, so the salt CLI exits 1)
    expect(await apply('state.show_highstate', 'saltenv=dev')).toEqual({ code: 1, ret: {} });
  });

  it('shows high data and low chunks without running them', async () => {
    const high = (await apply('state.show_sls', 'web')).ret as unknown as Record<
      string,
      Record<string, unknown>
    >;
    expect(high.first).toEqual({
      // state_auto_order numbers each state as Salt's show_sls shows it
      test: [{ comment: 'one' }, 'succeed_without_changes', { order: 10001 }],
      __sls__: 'web',
      __env__: 'base',
    });
    const low = (await apply('state.show_low_sls', 'web')).ret as unknown as Record<string, unknown>[];
    expect(low.map((l) => l.__id__)).toEqual(['conf_ok', 'first', 'second']);
    expect((await apply('state.sls_exists', 'web')).ret).toBe(true);
    expect((await apply('state.sls_exists', 'nosuch')).ret).toBe(false);
  });

  it('sets retcode 2 when a state fails and reports the requisite that failed', async () => {
    const { code, ret } = await apply('state.apply', 'fails');
    expect(code).toBe(1);
    // the minion's retcode, as `--retcode-passthrough` passes it
    expect((await c.salt(['m1', 'state.apply', 'fails', '--retcode-passthrough'])).code).toBe(2);
    const r = ret as Record<string, Entry>;
    expect(r['test_|-bad_|-bad_|-fail_without_changes']!.result).toBe(false);
    const after = r['test_|-after_|-after_|-succeed_without_changes']!;
    expect(after.result).toBe(false);
    expect(after.comment).toContain('One or more requisite failed');
  });

  it('answers a template error with retcode 1 and the file and line', async () => {
    const { code, ret } = await apply('state.apply', 'broken');
    expect(code).toBe(1);
    expect(Array.isArray(ret)).toBe(true);
    expect((ret as string[]).join('\n')).toMatch(/broken\.sls.*3|line 3/);
    const missing = await apply('state.apply', 'nosuch');
    expect(missing.code).toBe(1);
    expect((missing.ret as string[])[0]).toContain("No matching sls found for 'nosuch' in env 'base'");
  });

  it('state.single and state.low check the call first, as Salt: a list of errors and retcode 1', async () => {
    const nosuch = await apply('state.single', 'test.nosuch', 'name=x');
    expect([nosuch.code, nosuch.ret]).toEqual([1, ["Specified state 'test.nosuch' was not found"]]);
    // the orchestration states are `salt.*`; `saltmod` is only the file's name, in Salt as here
    const saltmod = await apply('state.single', 'saltmod.function', 'name=test.ping', 'tgt=m1');
    expect([saltmod.code, saltmod.ret]).toEqual([1, ["Specified state 'saltmod.function' was not found"]]);
    const lowmod = await apply('state.low', '{"state": "saltmod", "fun": "state", "name": "x", "tgt": "m1"}');
    expect(lowmod.ret).toEqual(["Specified state 'saltmod.state' was not found"]);
    const bare = await apply('state.single', 'host.present', 'name=x');
    expect(bare.ret).toEqual(['Missing parameter ip for state host.present']);
    const low = await apply('state.low', '{"state": "test", "fun": "nop", "name": "x", "umask": "99"}');
    expect(low.ret).toEqual(['Invalid umask: 99']);
  });

  it('refuses a second state run while one runs, as Salt does', async () => {
    const slow = c.saltJson(['m1', 'state.apply', 'slow']);
    const running = await held('slow');
    const second = await apply('state.apply', 'web');
    running.release();
    expect(second.code).toBe(1);
    expect((second.ret as string[])[0]).toMatch(/^The function "state.apply" is running as PID \d+/);
    const first = await slow;
    expect(first.code).toBe(0);
  });

  it('state.soft_kill stops a running state job before its next state', async () => {
    const started = await c.salt(['--async', 'm1', 'state.apply', 'killme']);
    const jid = /job ID: (\d+)/.exec(started.stdout)?.[1];
    expect(jid).toBeDefined();
    const running = await held('killme');
    const killed = await c.saltJson(['m1', 'state.soft_kill', jid!]);
    running.release();
    expect(killed.data.m1).toBeNull();
    const stored = await c.jobReturns(jid!, (s) => 'm1' in s, 20_000);
    const ret = stored.m1?.return as Record<string, Entry>;
    expect(Object.keys(ret)).toEqual([`cmd_|-wait_|-${holdCommand('killme')}_|-run`]);
  });

  it('runs a state module synced from salt://_states', async () => {
    const synced = await c.saltJson(['m1', 'saltutil.sync_states']);
    expect(synced.data.m1).toEqual(['states.hello']);
    const { code, ret } = await apply('state.apply', 'greet');
    expect(code).toBe(0);
    expect((ret as Record<string, Entry>)['hello_|-greet_|-you_|-world']).toMatchObject({
      result: true,
      comment: 'hello you',
      changes: { greeted: 'you' },
    });
  });

  it('the reactor starts an orchestration, as Salt users wire deployments', async () => {
    const fired = await c.saltJson(['m1', 'event.send', 'tsalt/test/deploy']);
    expect(fired.data.m1).toBe(true);
    const done = join(c.root, 'reacted');
    for (let i = 0; i < 150 && !existsSync(done); i++) await new Promise((r) => setTimeout(r, 200));
    expect(existsSync(done)).toBe(true);
  });

  it('runs startup_states once a minion is connected, and returns the job to the master', async () => {
    await c.startMinion('m2', { startup_states: 'sls', sls_list: ['web'] });
    const { def, ctx } = await c.jobCache();
    let jid: string | undefined;
    for (let i = 0; i < 100 && !jid; i++) {
      jid = (await def.getFun!('state.sls', ctx)).m2;
      if (!jid) await new Promise((r) => setTimeout(r, 200));
    }
    expect(jid).toBeDefined();
    const stored = await c.jobReturns(jid!, (s) => 'm2' in s, 15_000);
    const ret = stored.m2?.return as Record<string, Entry>;
    expect(ret['test_|-conf_ok_|-m2-conf_|-nop']?.result).toBe(true);
  });

  it('orchestrates from the master: a function, then a state run on the minion', async () => {
    const r = await c.saltRun(['state.orchestrate', 'orch.deploy', '--out', 'json']);
    expect(r.code).toBe(0);
    // Salt's orchestration return, printed whole by --out json
    const out = JSON.parse(r.stdout) as { data: Record<string, Record<string, Entry>>; retcode: number };
    expect(out.retcode).toBe(0);
    const run = out.data[`${hostname()}_master`]!; // Salt's MasterMinion id without a master `id`
    expect(run['salt_|-ping_|-test.ping_|-function']).toMatchObject({
      result: true,
      comment: 'Function ran successfully. Function test.ping ran on m1.',
      changes: { ret: { m1: true } },
    });
    const state = run['salt_|-apply_web_|-apply_web_|-state']!;
    expect(state.result).toBe(true);
    expect(state.comment).toBe('States ran successfully. Updating m1.');
    const keys = run['salt_|-keys_|-key.list_all_|-wheel']!;
    expect(keys).toMatchObject({ result: true, comment: "Wheel function 'key.list_all' executed." });
    expect((keys.changes as { return: { minions: string[] } }).return.minions).toContain('m1');
  });

  it("fails a minion whose return the fail_function finds false (cmd.run's empty output)", async () => {
    const r = await c.saltRun(['state.orchestrate', 'orch.failfn', '--out', 'json']);
    const out = JSON.parse(r.stdout) as { data: Record<string, Record<string, Entry>> };
    const run = out.data[`${hostname()}_master`]!;
    expect(run['salt_|-judged_|-cmd.run_|-function']).toMatchObject({
      result: false,
      // Salt's wording: no stop before the second sentence
      comment: 'Running function cmd.run failed on minions: m1 Function cmd.run ran on m1.',
      changes: { ret: { m1: '' } },
    });
    expect(run['salt_|-unjudged_|-cmd.run_|-function']).toMatchObject({
      result: true,
      comment: 'Function ran successfully. Function cmd.run ran on m1.',
    });
  });

  it('orchestrates with a state module the master synced from salt://_states', async () => {
    const synced = await c.saltRun(['saltutil.sync_states', '--out', 'json']);
    expect(synced.code).toBe(0);
    expect(JSON.parse(synced.stdout)).toEqual(['states.hello']);
    const r = await c.saltRun(['state.orchestrate', 'orch.greet', '--out', 'json']);
    const out = JSON.parse(r.stdout) as { data: Record<string, Record<string, Entry>>; retcode: number };
    expect(out.data[`${hostname()}_master`]?.['hello_|-greet_master_|-master_|-world']).toMatchObject({
      result: true,
      comment: 'hello master',
    });
    expect([r.code, out.retcode]).toEqual([0, 0]);
  });
});
