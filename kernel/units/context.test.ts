import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SALT_ERR_PLUGIN_OPTIONS, SALT_ERR_PROCESS_MASTER_ONLY } from '../errors.js';
import { minionProcessContext, unitOptions } from './context.js';
import { defineEngine } from './define.js';

const silent = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };
const engine = defineEngine({
  name: 'e',
  options: z.object({ path: z.string(), every: z.number().default(5) }),
  start() {},
});

describe('unitOptions', () => {
  it('validates with the unit schema (defaults applied) or throws SALT_ERR_PLUGIN_OPTIONS', () => {
    expect(unitOptions(engine, { path: '/x' })).toEqual({ path: '/x', every: 5 });
    expect(() => unitOptions(engine, { every: 'x' })).toThrow(SALT_ERR_PLUGIN_OPTIONS);
    const plain = defineEngine({ name: 'p', start() {} });
    expect(unitOptions(plain, { a: 1 })).toEqual({ a: 1 });
  });
});

describe('minionProcessContext', () => {
  it('fires through the master link as a _minion_event; listen is master-only', async () => {
    const loads: Record<string, unknown>[] = [];
    const ctx = minionProcessContext(
      engine,
      { id: 'm1' },
      { path: '/x' },
      silent,
      new AbortController().signal,
      {
        id: 'm1',
        request: async (load) => {
          loads.push(load);
          return null;
        },
      },
    );
    expect(ctx.options).toEqual({ path: '/x', every: 5 });
    await ctx.fire('acme/x', { a: 1 });
    expect(loads).toEqual([
      { cmd: '_minion_event', id: 'm1', pretag: null, events: [{ tag: 'acme/x', data: { a: 1, id: 'm1' } }] },
    ]);
    expect(() => ctx.listen(['salt/'])).toThrow(SALT_ERR_PROCESS_MASTER_ONLY);
    await ctx.close();
  });

  it('a fire the master refuses rejects', async () => {
    const ctx = minionProcessContext(engine, {}, { path: '/x' }, silent, new AbortController().signal, {
      id: 'm1',
      request: () => Promise.reject(new Error('no master')),
    });
    await expect(ctx.fire('acme/x', {})).rejects.toThrow('no master');
  });
});
