/**
 * Every built-in execution module's signatures against Salt 3006.18's own: `sys.argspec` of each
 * function tsalt has, beside what `salt-call --local sys.argspec '*'` answered on real Salt
 * (recorded by tools/compare-argspec.ts --record). Args order, defaults, *args and **kwargs are
 * how Salt users call a function positionally, so they stay Salt's.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type FunctionIndex,
  type FunctionSpec,
  type ModuleDef,
  resolveFunctionArgs,
} from '../../kernel/loader/define.js';
import { fakeCtx, invoke } from '../../modules/_fake-ctx.js';
import sys from '../../modules/sys.js';

const ROOT = join(import.meta.dirname, '..', '..');
/**
 * Salt's `DEFAULT_SHELL` (the `shell` default of cmd.*) is the recording process's `$SHELL`, /bin/bash
 * there; on a host with another `$SHELL`, or none (a CI runner), Salt's default would be that one.
 */
const RECORDED_SHELL = '/bin/bash';
const HOST_SHELL = process.env.SHELL || '/bin/sh';
const SALT: Record<string, unknown> = JSON.parse(
  readFileSync(join(ROOT, 'test', 'fixtures', 'salt-argspec', '3006.18.json'), 'utf8'),
  (key, value) =>
    key === 'defaults' && Array.isArray(value)
      ? value.map((v) => (v === RECORDED_SHELL ? HOST_SHELL : v))
      : value,
);

/** Differences kept on purpose, with the reason. */
const DELIBERATE: Record<string, string> = {
  // Salt's ifelse takes tgt_type, minion_id, merge and merge_lists as keyword-only arguments,
  // which Salt's argspec does not show; tsalt has no keyword-only kind, so they arrive as **kwargs
  'match.ifelse': 'keyword-only arguments',
};

async function builtinModules(): Promise<ModuleDef[]> {
  const dir = join(ROOT, 'modules');
  const files = readdirSync(dir).filter((f) => /^[a-z][\w-]*\.ts$/.test(f) && !f.includes('.test.'));
  const mods: ModuleDef[] = [];
  for (const f of files) mods.push(((await import(join(dir, f))) as { default: ModuleDef }).default);
  return mods;
}

function indexOf(mods: readonly ModuleDef[]): FunctionIndex {
  const specs = new Map<string, FunctionSpec>(
    mods.flatMap((m) =>
      Object.entries(m.functions).map(([f, s]): [string, FunctionSpec] => [`${m.name}.${f}`, s]),
    ),
  );
  return {
    list: async () => [...specs.keys()].sort(),
    modules: async () => [...new Set(mods.map((m) => m.name))].sort(),
    get: async (fun) => {
      const spec = specs.get(fun);
      return spec && resolveFunctionArgs(spec);
    },
    moduleDoc: async () => undefined,
    explain: async (fun) => `'${fun}' is not available.`,
    provider: async (name) => (mods.some((m) => m.name === name) ? name : undefined),
  };
}

describe("sys.argspec of the built-in modules is Salt 3006.18's", () => {
  it('for every function both have, deliberate differences aside', async () => {
    const ctx = fakeCtx({ functions: indexOf(await builtinModules()) });
    const ours = (await invoke(sys, 'argspec', ['*'], ctx)).value as Record<string, unknown>;
    const both = Object.keys(SALT).filter((f) => f in ours);
    // the fixture holds what a Debian minion loads; most of it must be here whatever the host
    expect(both.length).toBeGreaterThan(Object.keys(SALT).length * 0.9);
    const differ = both
      .filter((f) => !(f in DELIBERATE))
      .filter((f) => JSON.stringify(ours[f]) !== JSON.stringify(SALT[f]))
      .map((f) => ({ f, salt: SALT[f], tsalt: ours[f] }));
    expect(differ).toEqual([]);
    for (const f of Object.keys(DELIBERATE)) if (f in ours) expect(ours[f]).not.toEqual(SALT[f]);
  }, 60_000);
});
