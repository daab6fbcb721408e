// Salt's alias functions (`salt.utils.functools.alias_function`) are the same function under a
// second name, with the same signature (test/conformance/salt-argspec.test.ts holds those)
import { describe, expect, it } from 'vitest';
import cron from './cron.js';
import pillar from './pillar.js';
import saltcheck from './saltcheck.js';
import saltutil from './saltutil.js';

describe("Salt's aliases", () => {
  it('name the same function', () => {
    expect(cron.functions.ls).toBe(cron.functions.list_tab);
    expect(cron.functions.rm).toBe(cron.functions.rm_job);
    expect(pillar.functions.data).toBe(pillar.functions.items);
    expect(saltutil.functions.pillar_refresh).toBe(saltutil.functions.refresh_pillar);
    expect(saltcheck.functions.run_state_tests_ssh?.doc).toBe(saltcheck.functions.run_state_tests?.doc);
  });
});
