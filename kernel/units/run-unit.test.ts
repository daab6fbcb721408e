import { describe, expect, it } from 'vitest';
import type { ClosableContext } from './context.js';
import { defineProcess, type ProcessDef } from './define.js';
import { runUnit } from './run-unit.js';

const silent = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };

function harness(def: ProcessDef) {
  const calls: string[] = [];
  const exits: number[] = [];
  const shutdown = runUnit({
    label: 'process-x',
    kind: 'process',
    log: silent,
    find: async () => def,
    context: (d, signal): ClosableContext => ({
      name: d.name,
      opts: {},
      options: {},
      log: silent,
      signal,
      fire: async () => {},
      listen: () => {
        throw new Error('no bus');
      },
      close: async () => {
        calls.push('close');
      },
    }),
    exit: (code) => exits.push(code),
  });
  return { calls, exits, shutdown };
}

const tick = () => new Promise((r) => setTimeout(r, 10));

describe('runUnit', () => {
  it('on shutdown: aborts, runs the cleanup, then stop, then closes the context', async () => {
    const calls: string[] = [];
    const h = harness(
      defineProcess({
        name: 'x',
        start(ctx) {
          ctx.signal.addEventListener('abort', () => calls.push('abort'));
          return () => {
            calls.push('cleanup');
          };
        },
        stop() {
          calls.push('stop');
        },
      }),
    );
    await tick();
    await h.shutdown();
    expect([...calls, ...h.calls]).toEqual(['abort', 'cleanup', 'stop', 'close']);
    expect(h.exits).toEqual([]);
  });

  it('a start that runs until the signal aborts ends on shutdown; stop is still called', async () => {
    let stopped = false;
    const h = harness(
      defineProcess({
        name: 'x',
        start: (ctx) => new Promise<void>((r) => ctx.signal.addEventListener('abort', () => r())),
        stop: () => {
          stopped = true;
        },
      }),
    );
    await tick();
    await h.shutdown();
    expect(stopped).toBe(true);
    expect(h.exits).toEqual([]);
  });

  it('a unit that throws at start or rejects later ends the process with 1', async () => {
    const a = harness(
      defineProcess({
        name: 'x',
        start() {
          throw new Error('no');
        },
      }),
    );
    const b = harness(defineProcess({ name: 'y', start: async () => Promise.reject(new Error('later')) }));
    await tick();
    expect(a.exits).toEqual([1]);
    expect(b.exits).toEqual([1]);
  });

  it('reports ready before it loads the unit', async () => {
    const order: string[] = [];
    const shutdown = runUnit({
      label: 'engine-x',
      kind: 'engine',
      log: silent,
      ready: async () => {
        order.push('ready');
      },
      find: async () => {
        order.push('find');
        return defineProcess({ name: 'x', start: () => void order.push('start') });
      },
      context: (d, signal) => ({
        name: d.name,
        opts: {},
        options: {},
        log: silent,
        signal,
        fire: async () => {},
        listen: () => {
          throw new Error('no bus');
        },
        close: async () => {},
      }),
      exit: () => order.push('exit'),
    });
    await tick();
    await shutdown();
    expect(order).toEqual(['ready', 'find', 'start']);
  });

  it('a unit that rejects because it is being stopped does not fail', async () => {
    const h = harness(
      defineProcess({
        name: 'x',
        start: (ctx) =>
          new Promise<void>((_, reject) =>
            ctx.signal.addEventListener('abort', () => reject(new Error('aborted'))),
          ),
      }),
    );
    await tick();
    await h.shutdown();
    expect(h.exits).toEqual([]);
  });
});
