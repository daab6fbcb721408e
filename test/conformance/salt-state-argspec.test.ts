/**
 * Every built-in state function's signature against Salt 3006.18's own: `sys.state_argspec`
 * of each state function tsalt has, read through a real state loader over states/, beside
 * what `salt-call --local sys.state_argspec '*'` answered on real Salt (recorded by
 * `node dist/tools/compare-argspec.js --states --record`). The names, order and defaults are
 * what a Salt user reads with sys.state_argspec and what the state compiler checks a chunk by.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fakeCtx, invoke } from '../../modules/_fake-ctx.js';
import sys from '../../modules/sys.js';
import { builtinStateFunctions } from '../support/builtin-states.js';

const ROOT = join(import.meta.dirname, '..', '..');
const SALT: Record<string, unknown> = JSON.parse(
  readFileSync(join(ROOT, 'test', 'fixtures', 'salt-argspec', 'states-3006.18.json'), 'utf8'),
);

/** Signatures that still differ, with the reason; a fixed one must leave this list. */
const NOT_YET: Record<string, string> = {
  'file.directory': "Salt's Windows-only win_* arguments",
  'file.managed': 'encoding_errors, selinux, verify_ssl, use_etag, win_* and the order of the last ones',
  'file.recurse': "Salt's Windows-only win_* arguments",
  'file.serialize': 'encoding_errors, mode default',
  'file.symlink': 'atomic, disallow_copy_and_unlink, inherit_user_and_group, win_*',
  'pip.installed': "most of pip's pass-through options",
};

describe("sys.state_argspec of the built-in state modules is Salt 3006.18's", () => {
  it('for every state function both have, those not yet done aside', async () => {
    const base = fakeCtx();
    const ctx = fakeCtx({ states: builtinStateFunctions(base) });
    const ours = (await invoke(sys, 'state_argspec', ['*'], ctx)).value as Record<string, unknown>;
    const both = Object.keys(SALT).filter((f) => f in ours);
    // modules whose virtual() needs the host's grains (debconf) are not loaded by a bare loader
    expect(both.length).toBeGreaterThan(Object.keys(SALT).length * 0.9);
    const differ = both
      .filter((f) => !(f in NOT_YET))
      .filter((f) => JSON.stringify(ours[f]) !== JSON.stringify(SALT[f]))
      .map((f) => ({ f, salt: SALT[f], tsalt: ours[f] }));
    expect(differ).toEqual([]);
    // a function fixed since stays fixed: take it off the list
    const fixed = Object.keys(NOT_YET).filter((f) => JSON.stringify(ours[f]) === JSON.stringify(SALT[f]));
    expect(fixed).toEqual([]);
  }, 60_000);
});
