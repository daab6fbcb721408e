import { describe, expect, it } from 'vitest';
import {
  type FunctionIndex,
  type FunctionSpec,
  type ModuleDef,
  resolveFunctionArgs,
} from '../kernel/loader/define.js';
import { builtinStateFunctions } from '../test/support/builtin-states.js';
import { fakeCtx, invoke } from './_fake-ctx.js';
import sys from './sys.js';
import test from './test.js';

/** A FunctionIndex over module definitions, as the loader builds it. */
function indexOf(mods: readonly ModuleDef[]): FunctionIndex {
  const specs = new Map<string, FunctionSpec>(
    mods.flatMap((m) =>
      Object.entries(m.functions).map(([f, s]): [string, FunctionSpec] => [`${m.name}.${f}`, s]),
    ),
  );
  return {
    list: async (mod) => [...specs.keys()].filter((k) => !mod || k.startsWith(`${mod}.`)).sort(),
    modules: async () => [...new Set(mods.map((m) => m.name))].sort(),
    get: async (fun) => {
      const spec = specs.get(fun);
      return spec && resolveFunctionArgs(spec);
    },
    moduleDoc: async (name) => mods.find((m) => m.name === name)?.doc,
    explain: async (fun) => `'${fun}' is not available.`,
    provider: async (name) => (mods.some((m) => m.name === name) ? name : undefined),
  };
}

const ctx = fakeCtx({ functions: indexOf([sys, test]) });

describe('sys module', () => {
  it('list_functions: all, by module (sys does not match sysctl), by glob', async () => {
    const all = (await invoke(sys, 'list_functions', [], ctx)).value as string[];
    expect(all).toContain('test.ping');
    expect(all).toEqual([...all].sort());
    expect((await invoke(sys, 'list_functions', ['sys'], ctx)).value).toEqual([
      'sys.argspec',
      'sys.doc',
      'sys.list_functions',
      'sys.list_modules',
      'sys.list_renderers',
      'sys.list_returner_functions',
      'sys.list_returners',
      'sys.list_runner_functions',
      'sys.list_runners',
      'sys.list_state_functions',
      'sys.list_state_modules',
      'sys.reload_modules',
      'sys.renderer_doc',
      'sys.returner_argspec',
      'sys.returner_doc',
      'sys.runner_argspec',
      'sys.runner_doc',
      'sys.state_argspec',
      'sys.state_doc',
      'sys.state_schema',
    ]);
    // a dotted name is a pattern in Salt's list_functions: `sys.` names no function
    expect((await invoke(sys, 'list_functions', ['sys.'], ctx)).value).toEqual([]);
    expect((await invoke(sys, 'list_functions', ['test.ar*'], ctx)).value).toEqual(
      (all as string[]).filter((f) => f.startsWith('test.ar')),
    );
  });

  it('list_modules with and without globs', async () => {
    expect((await invoke(sys, 'list_modules', [], ctx)).value).toEqual(['sys', 'test']);
    expect((await invoke(sys, 'list_modules', ['t*'], ctx)).value).toEqual(['test']);
    // a glob matches function names, as Salt's fnmatch over __salt__: `tes?` matches none
    expect((await invoke(sys, 'list_modules', ['tes?'], ctx)).value).toEqual([]);
    expect((await invoke(sys, 'list_modules', ['test'], ctx)).value).toEqual(['test']);
  });

  it('doc returns each function doc from the code', async () => {
    const docs = (await invoke(sys, 'doc', ['test.ping'], ctx)).value as Record<string, string>;
    expect(Object.keys(docs)).toEqual(['test.ping']);
    expect(docs['test.ping']).toBeTruthy();
  });

  it('argspec reports args, defaults, *args and **kwargs as Salt does', async () => {
    const spec = (await invoke(sys, 'argspec', ['test.echo'], ctx)).value as Record<string, unknown>;
    expect(spec).toEqual({ 'test.echo': { args: ['text'], defaults: null, varargs: null, kwargs: null } });
    const arg = (await invoke(sys, 'argspec', ['test.arg'], ctx)).value as Record<string, unknown>;
    expect(arg['test.arg']).toEqual({ args: null, defaults: null, varargs: true, kwargs: true });
    const ping = (await invoke(sys, 'argspec', ['test.ping'], ctx)).value as Record<string, unknown>;
    expect(ping['test.ping']).toEqual({ args: null, defaults: null, varargs: null, kwargs: null });
    // a default behind a transform (pyFlag) shows as the value leaving it out gives
    const pf = (await invoke(sys, 'argspec', ['test.try'], ctx)).value as Record<string, unknown>;
    expect(pf['test.try']).toEqual({
      args: ['module', 'return_try_exception'],
      defaults: [false],
      varargs: null,
      kwargs: true,
    });
    // Salt's argspec_report names nothing for no module; '*' names every function
    expect((await invoke(sys, 'argspec', [], ctx)).value).toEqual({});
    expect(Object.keys((await invoke(sys, 'argspec', ['*'], ctx)).value as object)).toContain('test.ping');
  });

  describe('the state modules, read from a real state loader over the built-in states', () => {
    const sctx = fakeCtx({ functions: indexOf([sys, test]) });
    const withStates = fakeCtx({ ...sctx, states: builtinStateFunctions(sctx) });

    it('list_state_functions and list_state_modules select as Salt does', async () => {
      const all = (await invoke(sys, 'list_state_functions', [], withStates)).value as string[];
      expect(all).toContain('file.managed');
      expect(all).toEqual([...all].sort());
      const testFuns = (await invoke(sys, 'list_state_functions', ['test'], withStates)).value as string[];
      expect(testFuns).toContain('test.nop');
      expect(testFuns.every((f) => f.startsWith('test.'))).toBe(true);
      expect((await invoke(sys, 'list_state_functions', ['file.s*'], withStates)).value).toEqual(
        all.filter((f) => f.startsWith('file.s')),
      );
      const mods = (await invoke(sys, 'list_state_modules', [], withStates)).value as string[];
      expect(mods).toContain('pkg');
      expect((await invoke(sys, 'list_state_modules', ['pkg*'], withStates)).value).toEqual(
        mods.filter((m) => m.startsWith('pkg')),
      );
    });

    it('state_doc gives the functions and their module doc; state_argspec their signatures', async () => {
      const docs = (await invoke(sys, 'state_doc', ['test.nop'], withStates)).value as Record<string, string>;
      expect(Object.keys(docs)).toEqual(['test', 'test.nop']);
      expect(docs.test).toBeTruthy();
      expect(docs['test.nop']).toBeTruthy();
      const spec = (await invoke(sys, 'state_argspec', ['test.nop'], withStates)).value;
      expect(spec).toEqual({ 'test.nop': { args: ['name'], defaults: null, varargs: null, kwargs: true } });
      expect((await invoke(sys, 'state_argspec', [], withStates)).value).toEqual({});
    });

    it("state_schema: each function's arguments as Salt's JSON Schema (measured on Salt 3006.18)", async () => {
      const one = (n: string, d?: unknown) => ({
        oneOf: ['boolean', 'integer', 'number', 'string'].map((type) => ({
          type,
          title: n,
          description: n,
          ...(d === undefined ? {} : { default: d }),
        })),
      });
      expect((await invoke(sys, 'state_schema', ['test.nop'], withStates)).value).toEqual([
        {
          $schema: 'http://json-schema.org/draft-04/schema#',
          title: 'test.nop',
          description: 'test.nop',
          type: 'object',
          properties: { name: one('name') },
          'x-ordering': ['name'],
          additionalProperties: false,
        },
      ]);
      const [cfg] = (await invoke(sys, 'state_schema', ['test.configurable_test_state'], withStates))
        .value as Record<string, unknown>[];
      expect(cfg).toMatchObject({ properties: { result: one('result', true) } });
      expect((await invoke(sys, 'state_schema', ['nosuch'], withStates)).value).toEqual([]);
    });

    it('answers a clear error where no state loader is set up', async () => {
      await expect(invoke(sys, 'state_argspec', ['test.nop'], ctx)).rejects.toThrow('No state modules');
    });
  });
});
