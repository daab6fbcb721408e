/**
 * Salt's `saltcheck` execution module (`salt/modules/saltcheck.py`): runs the tests a formula
 * ships beside its states (`<formula>/saltcheck-tests/*.tst`, Jinja and YAML like an SLS), each
 * an execution function and an assertion on what it returned, and reports Pass/Fail/Skip per
 * test with Salt's texts and totals. Tests run one after another (`saltcheck_parallel` is read
 * as Salt's option but tsalt runs them in order). A test whose function fails or whose assertion
 * cannot compare the values fails on its own with the error's text, where Salt's run ends.
 */
import {
  defineFunction,
  defineModule,
  type ExecContext,
  RetcodeResult,
  SALT_ERR_INVOCATION,
} from '../kernel/index.js';
import { pyTypeName } from '../kernel/util.js';
import { pyFlag } from './_coerce.js';
import { cleanKwargs } from './_invalid-kwargs.js';
import { pythonError } from './_py-exception.js';
import { ASSERTIONS, runAssertion, WITHOUT_EXPECTED } from './_saltcheck-assert.js';
import { StateTestLoader } from './_saltcheck-loader.js';
import { isMapping } from './_traverse.js';

type Test = Readonly<Record<string, unknown>>;
type Results = Map<string, Map<string, Record<string, unknown>>>;

const seconds = (since: number): number => Math.round((performance.now() - since) / 1e-1) / 1e4;

/** Salt's `_check_assertions`: a known assertion with an expected value where it needs one. */
function assertionValid(data: Test): boolean {
  const assertion = data.assertion;
  if (!(ASSERTIONS as readonly unknown[]).includes(assertion)) return false;
  if (WITHOUT_EXPECTED.includes(String(assertion))) return true;
  const expected = data.expected_return !== undefined ? data.expected_return : data['expected-return'];
  return expected !== undefined && expected !== null;
}

async function hasFunction(ctx: ExecContext, fun: string): Promise<boolean> {
  const [mod, fn, extra] = fun.split('.');
  if (!mod || fn === undefined || extra !== undefined) return false;
  const mods = await ctx.call('sys.list_modules', []);
  if (!Array.isArray(mods) || !mods.includes(mod)) return false;
  const fns = await ctx.call('sys.list_functions', [mod]).catch(() => []);
  return Array.isArray(fns) && fns.includes(fun);
}

/** Salt's `__is_valid_test` (with its quirk: of several assertions, the last one decides). */
async function validTest(ctx: ExecContext, test: Test): Promise<boolean> {
  const fun = test.module_and_function;
  if (fun === 'saltcheck.state_apply') return true;
  const groups = Array.isArray(test.assertions) && test.assertions.length > 0 ? test.assertions : [test];
  const last = groups[groups.length - 1];
  let valid = isMapping(last) && assertionValid(last);
  if (typeof fun !== 'string' || !fun) return false;
  if (!(await hasFunction(ctx, fun))) valid = false;
  return valid;
}

/** `*args` as Python spreads them: a list, a string's characters, nothing for None. */
function spread(args: unknown): unknown[] {
  if (args === undefined || args === null) return [];
  if (Array.isArray(args)) return args;
  if (typeof args === 'string') return [...args];
  return isMapping(args) ? Object.keys(args) : [args];
}

/** Salt's `SaltCheck.run_test`: one test's `{status, ..., duration}`. */
async function runTest(ctx: ExecContext, test: Test): Promise<Record<string, unknown>> {
  const start = performance.now();
  const result: Record<string, unknown> = {};
  const globalDetails = (await ctx.call('config.get', ['saltcheck_output_details', false])) === true;
  const details = test.output_details !== undefined ? test.output_details === true : globalDetails;
  if (!(await validTest(ctx, test))) {
    result.status = 'Fail - invalid test';
  } else if (test.skip !== undefined && test.skip !== false && test.skip !== null) {
    return { status: 'Skip', duration: 0 };
  } else {
    const fun = String(test.module_and_function);
    const kwargs: Record<string, unknown> = isMapping(test.kwargs) ? { ...test.kwargs } : {};
    const pillar = test.pillar_data ?? test['pillar-data'];
    if (pillar) kwargs.pillar = pillar;
    else delete kwargs.pillar;
    const print = test.print_result === undefined ? true : test.print_result !== false;
    let returned: unknown;
    try {
      returned = await ctx.call(fun, spread(test.args), kwargs);
    } catch (err) {
      return { status: `Fail: ${(err as Error).message}`, duration: seconds(start) };
    }
    const assertion = (data: Test) =>
      runAssertion({ fun, args: test.args ?? null, data, returned, details, print });
    if (Array.isArray(test.assertions) && test.assertions.length > 0) {
      test.assertions.forEach((group, i) => {
        result[`assertion${i + 1}`] = assertion(isMapping(group) ? group : {});
      });
      const failed = Object.values(result).some((r) => isMapping(r) && r.status !== 'Pass');
      result.status = failed ? 'Fail' : 'Pass';
    } else Object.assign(result, assertion(test));
  }
  result.duration = seconds(start);
  return result;
}

/** Salt's `_generate_out_list`: one `{state: results}` per state (sorted), then the totals. */
function outList(results: Results, onlyFails: boolean): unknown {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  let missing = 0;
  let time = 0;
  const out: Array<Record<string, unknown>> = [];
  for (const [state, tests] of results) {
    if (tests.size === 0) missing++;
    for (const r of tests.values()) {
      const status = String(r.status);
      if (status.startsWith('Pass')) passed++;
      if (status.startsWith('Fail')) failed++;
      if (status.startsWith('Skip')) skipped++;
      time += Number(r.duration) || 0;
    }
    const shown = onlyFails ? [...tests].filter(([, r]) => String(r.status).startsWith('Fail')) : [...tests];
    out.push(onlyFails && shown.length === 0 ? {} : { [state]: Object.fromEntries(shown) });
  }
  const key = (o: Record<string, unknown>) => Object.keys(o).sort().join('\0');
  out.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  out.push({
    'TEST RESULTS': {
      'Execution Time': Math.round(time * 1e4) / 1e4,
      Passed: passed,
      Failed: failed,
      Skipped: skipped,
      'Missing Tests': missing,
    },
  });
  return failed ? new RetcodeResult(out, 1) : out;
}

async function saltenvOf(ctx: ExecContext, saltenv: string | null | undefined): Promise<string> {
  if (saltenv) return saltenv;
  return typeof ctx.opts.saltenv === 'string' && ctx.opts.saltenv ? ctx.opts.saltenv : 'base';
}

const testLocation = async (ctx: ExecContext): Promise<string> =>
  String((await ctx.call('config.get', ['saltcheck_test_location', 'saltcheck-tests'])) || 'saltcheck-tests');

async function runStateTests(
  ctx: ExecContext,
  state: string,
  saltenv: string,
  checkAll: boolean,
  onlyFails: boolean,
): Promise<unknown> {
  const loader = new StateTestLoader(ctx, saltenv, await testLocation(ctx));
  const results: Results = new Map();
  for (const name of state.split(',').map((s) => s.trim())) {
    await loader.addTestFilesForSls(name, checkAll);
    const tests = await loader.loadTestSuite();
    const out = new Map<string, Record<string, unknown>>();
    for (const [id, test] of tests) out.set(id, await runTest(ctx, isMapping(test) ? test : {}));
    if (!results.get(name)?.size) results.set(name, out);
  }
  return outList(results, onlyFails);
}

async function topStates(ctx: ExecContext, saltenv: string): Promise<string[]> {
  const top = await ctx.call('state.show_top', [], { saltenv });
  const list = isMapping(top) ? top[saltenv] : undefined;
  return Array.isArray(list) ? list.map(String) : [];
}

/** `run_state_tests` (and Salt's alias `run_state_tests_ssh`). */
function runStateTestsFunction() {
  return defineFunction({
    args: (z) =>
      z.object({
        state: z.coerce.string(),
        saltenv: z.string().nullish(),
        check_all: pyFlag(z, false),
        only_fails: pyFlag(z, false),
      }),
    doc: `Execute tests for a salt state and return results. Nested states will also be tested.

CLI Example:

    salt '*' saltcheck.run_state_tests postfix,common`,
    run: async (ctx, a) =>
      runStateTests(ctx, a.state, await saltenvOf(ctx, a.saltenv), a.check_all, a.only_fails),
  });
}

/** Python's `data[i]` on what a CLI can pass, with Python's errors. */
function pyIndex(data: unknown, i: number): unknown {
  if (typeof data === 'string' || Array.isArray(data)) {
    if (i < data.length) return data[i];
    throw pythonError('IndexError', `${typeof data === 'string' ? 'string' : 'list'} index out of range`);
  }
  if (isMapping(data)) {
    if (String(i) in data) return data[String(i)];
    throw pythonError('KeyError', String(i));
  }
  // a TypeError in the function: salt-call reports it as invalid arguments, as Salt's
  throw new SALT_ERR_INVOCATION(`'${pyTypeName(data).slice(8, -2)}' object is not subscriptable`);
}

export default defineModule({
  name: 'saltcheck',
  doc: 'A module for testing the logic of states and highstates on salt minions.',
  functions: {
    parallel_scheck: defineFunction({
      args: (z) => z.object({ data: z.unknown() }),
      doc: 'triggers salt-call in parallel: runs one (name, test) pair of run_state_tests on the SaltCheck a parallel run_state_tests keeps in its process, so a call of its own has none to run it on (KeyError, as Salt).',
      run: (_ctx, a) => {
        pyIndex(a.data, 0);
        pyIndex(a.data, 1);
        throw pythonError('KeyError', "'global_scheck'");
      },
    }),
    run_test: defineFunction({
      varkw: true,
      args: (z) => z.object({}),
      doc: `Execute one saltcheck test and return result

CLI Example:

    salt '*' saltcheck.run_test test='{"module_and_function": "test.echo", "assertion": "assertEqual", "expected_return": "This works!", "args":["This works!"] }'`,
      run: async (ctx, _a, extra) => {
        const test = extra.kwargs.test;
        return isMapping(test) ? runTest(ctx, test) : 'Test argument must be a dictionary';
      },
    }),
    state_apply: defineFunction({
      varkw: true,
      args: (z) => z.object({ state_name: z.coerce.string() }),
      doc: `Runs state.apply with given options to set up test data.

CLI Example:

    salt '*' saltcheck.state_apply postfix`,
      run: (ctx, { state_name }, extra) => {
        const kw = cleanKwargs(extra.kwargs);
        return ctx.call('state.apply', [state_name], kw);
      },
    }),
    report_highstate_tests: defineFunction({
      args: (z) => z.object({ saltenv: z.string().nullish() }),
      doc: `Report on tests for states assigned to the minion through highstate.

CLI Example:

    salt '*' saltcheck.report_highstate_tests`,
      run: async (ctx, a) => {
        const saltenv = await saltenvOf(ctx, a.saltenv);
        const loader = new StateTestLoader(ctx, saltenv, await testLocation(ctx));
        const missing: string[] = [];
        for (const state of await topStates(ctx, saltenv)) {
          await loader.addTestFilesForSls(state, false);
          if (!loader.foundStates.includes(state)) missing.push(state);
        }
        const report = {
          'TEST REPORT RESULTS': {
            'Missing Tests': missing.length,
            'States missing tests': missing,
            'States with tests': loader.foundStates,
          },
        };
        return missing.length ? new RetcodeResult(report, missing.length) : report;
      },
    }),
    run_state_tests: runStateTestsFunction(),
    run_state_tests_ssh: runStateTestsFunction(),
    run_highstate_tests: defineFunction({
      args: (z) => z.object({ saltenv: z.string().nullish(), only_fails: pyFlag(z, false) }),
      doc: `Execute all tests for states assigned to the minion through highstate and return results.

CLI Example:

    salt '*' saltcheck.run_highstate_tests`,
      run: async (ctx, a) => {
        const saltenv = await saltenvOf(ctx, a.saltenv);
        return runStateTests(ctx, (await topStates(ctx, saltenv)).join(','), saltenv, false, a.only_fails);
      },
    }),
  },
});
