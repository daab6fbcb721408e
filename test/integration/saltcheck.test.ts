// saltcheck through a real masterless salt-call: a formula's saltcheck-tests found beside its
// states (and an included SLS's), Jinja-rendered, run, and reported with Salt's texts, totals
// and retcodes (the same answers Salt 3006.18 gives for these files, durations aside)
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localCaller } from '../support/local-call.js';

type Results = Array<Record<string, Record<string, Record<string, unknown>>>>;

describe('saltcheck execution module', () => {
  const root = mkdtempSync(join(tmpdir(), 'tsalt-saltcheck-'));
  const srv = join(root, 'srv');
  const call = localCaller(root, 'sc1');

  beforeAll(() => {
    mkdirSync(join(srv, 'web/saltcheck-tests'), { recursive: true });
    mkdirSync(join(srv, 'db'), { recursive: true });
    mkdirSync(join(root, 'pillar'));
    writeFileSync(join(srv, 'top.sls'), "base:\n  '*':\n    - web\n    - db\n");
    writeFileSync(join(srv, 'web/init.sls'), 'w:\n  test.nop: []\n');
    writeFileSync(join(srv, 'web/tls.sls'), 'include:\n  - web\nt:\n  test.nop: []\n');
    writeFileSync(join(srv, 'db/init.sls'), 'd:\n  test.nop: []\n');
    writeFileSync(join(root, 'pillar/top.sls'), "base:\n  '*':\n    - p\n");
    writeFileSync(join(root, 'pillar/p.sls'), 'port: 443\nnames: [a, b]\n');
    writeFileSync(
      join(srv, 'web/saltcheck-tests/init.tst'),
      `port_equal:
  module_and_function: pillar.get
  args: [port]
  assertion: assertEqual
  expected_return: "443"
name_missing:
  module_and_function: pillar.get
  args: [names]
  assertion: assertIn
  expected_return: c
  output_details: True
later:
  module_and_function: test.echo
  args: [x]
  assertion: assertEqual
  expected_return: x
  skip: True
id_from_jinja:
  module_and_function: grains.get
  args: [id]
  assertions:
    - assertion: assertEqual
      expected_return: {{ grains['id'] }}
    - assertion: assertNotEmpty
`,
    );
    writeFileSync(
      join(srv, 'web/saltcheck-tests/tls.tst'),
      'tls_on:\n  module_and_function: test.true\n  assertion: assertTrue\n',
    );
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("runs a state's tests with Salt's verdicts, details and totals; a failure sets retcode 1", async () => {
    const r = await call('saltcheck.run_state_tests', 'web');
    expect(r.code).toBe(1);
    const [web, totals] = r.local as Results;
    const tests = web?.web ?? {};
    expect(Object.keys(tests)).toEqual(['port_equal', 'name_missing', 'later', 'id_from_jinja']);
    expect(tests.port_equal).toMatchObject({ status: 'Pass' });
    expect(tests.name_missing).toMatchObject({
      status: "Fail: c not found in ['a', 'b']",
      'module.function [args]': 'pillar.get ["names"]',
      'saltcheck assertion': "c IN ['a', 'b']",
    });
    expect(tests.later).toEqual({ status: 'Skip', duration: 0 });
    expect(tests.id_from_jinja).toMatchObject({
      assertion1: { status: 'Pass' },
      assertion2: { status: 'Pass' },
      status: 'Pass',
    });
    expect(totals).toMatchObject({
      'TEST RESULTS': { Passed: 2, Failed: 1, Skipped: 1, 'Missing Tests': 0 },
    });
  });

  it('finds the tests of an SLS and of what it includes; only_fails shows failures alone', async () => {
    const r = await call('saltcheck.run_state_tests', 'web.tls', 'only_fails=True');
    const [shown, totals] = r.local as Results;
    expect(Object.keys(shown?.['web.tls'] ?? {})).toEqual(['name_missing']);
    expect(totals).toMatchObject({ 'TEST RESULTS': { Passed: 3, Failed: 1, Skipped: 1 } });
  });

  it('reports highstate states without tests (retcode: how many) and runs one test given inline', async () => {
    const report = await call('saltcheck.report_highstate_tests');
    expect({ code: report.code, local: report.local }).toEqual({
      code: 1,
      local: {
        'TEST REPORT RESULTS': {
          'Missing Tests': 1,
          'States missing tests': ['db'],
          'States with tests': ['web'],
        },
      },
    });
    const one = await call(
      'saltcheck.run_test',
      'test={"module_and_function": "test.echo", "args": ["7"], "assertion": "assertGreater", "expected_return": 10}',
    );
    // "10" > "7" is False in Python: the expected value is cast to the returned string first
    expect(one.local).toMatchObject({ status: 'Fail: 7 not False' });
  });
});
