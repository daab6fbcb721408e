import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SALT_ERR_RUNNER } from '../errors.js';
import type { RunnerFunctionSpec } from './define.js';
import { funArgs, invokeFunction, normalizeArgs } from './invoke.js';
import type { RunnerLoader } from './loader.js';

function loaderOf(
  specs: Record<string, RunnerFunctionSpec<z.ZodObject, unknown, object>>,
): RunnerLoader<object> {
  return {
    get: async (fun) => specs[fun] as never,
    explain: async (fun) => `'${fun}' is not available.`,
    listFunctions: async () => Object.keys(specs),
    functionDoc: async (fun) => specs[fun]?.doc,
    reload: () => {},
  };
}

const loader = loaderOf({
  'm.add': {
    args: z.object({ a: z.number(), b: z.number().default(1) }),
    run: (_c, { a, b }) => Number(a) + Number(b),
  },
  'm.boom': {
    run: () => {
      throw new Error('kaput');
    },
  },
  'm.salt': {
    run: () => {
      throw new SALT_ERR_RUNNER('bad input');
    },
  },
  'm.out': { outputter: 'yaml', run: () => 1 },
});

describe('invokeFunction', () => {
  it('binds positionals and keywords', async () => {
    const r = await invokeFunction('runner', loader, 'm.add', [2], { b: 5 }, {});
    expect(r).toMatchObject({ return: 7, success: true, retcode: 0, funArgs: [2, { b: 5 }] });
  });
  it('a throw becomes Salt text with success false', async () => {
    const r = await invokeFunction('runner', loader, 'm.boom', [], {}, {});
    expect(r.success).toBe(false);
    expect(String(r.return)).toMatch(/^Exception occurred in runner m\.boom: Error: kaput/);
    const s = await invokeFunction('runner', loader, 'm.salt', [], {}, {});
    expect(s.return).toBe('Exception occurred in runner m.salt: SALT_ERR_RUNNER: bad input');
  });
  it('bad arguments and unknown functions', async () => {
    const r = await invokeFunction('wheel', loader, 'm.add', [], {}, {});
    expect(r.success).toBe(false);
    expect(String(r.return)).toContain("add() missing 1 required positional argument: 'a'");
    const u = await invokeFunction('wheel', loader, 'm.nope', [], {}, {});
    expect(u).toMatchObject({ return: "'m.nope' is not available.", success: false, retcode: 1 });
  });
  it('keeps the declared outputter and the retcode the function set', async () => {
    expect((await invokeFunction('runner', loader, 'm.out', [], {}, {})).outputter).toBe('yaml');
    const r = await invokeFunction('runner', loader, 'm.add', [1], {}, {}, () => 2);
    expect(r).toMatchObject({ success: false, retcode: 2 });
  });
  it('normalizes client args', () => {
    expect(normalizeArgs(['a', { __kwarg__: true, k: 1 }, 'x=2'], { y: 3 })).toEqual({
      args: ['a'],
      kwargs: { k: 1, x: 2, y: 3 },
    });
    expect(funArgs([1], {})).toEqual([1]);
  });
});
