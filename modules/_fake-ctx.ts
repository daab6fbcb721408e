/**
 * Test support for execution modules: a hand-made ExecContext and a call helper that goes
 * through the real argument path (splitArgs → bindArgs → run → unwrapRetcode).
 */

import { type ExecContext, type ModuleDef, resolveFunctionArgs, type UnitLogger } from '../kernel/index.js';
import { bindArgs, splitArgs, unwrapRetcode } from '../kernel/util.js';

/** A logger that keeps what it is given. */
export function memoryLogger(): UnitLogger & { lines: unknown[][] } {
  const lines: unknown[][] = [];
  const at =
    (level: string) =>
    (obj: object | string, msg?: string): void => {
      lines.push([level, obj, msg]);
    };
  return {
    lines,
    trace: at('trace'),
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
  };
}

/** An ExecContext with sensible defaults; override any member. */
export function fakeCtx(over: Partial<ExecContext> = {}): ExecContext {
  return {
    opts: {},
    grains: {},
    id: 'minion-1',
    jid: '20240101000000000000',
    call: async () => {
      throw new Error('no ctx.call in this test');
    },
    log: memoryLogger(),
    signal: new AbortController().signal,
    cache: new Map(),
    functions: {
      list: async () => [],
      modules: async () => [],
      get: async () => undefined,
      moduleDoc: async () => undefined,
      explain: async (fun) => `'${fun}' is not available.`,
      provider: async () => undefined,
    },
    ...over,
  };
}

/** Calls `mod.functions[fun]` with a published-style `arg` list; returns value and retcode. */
export async function invoke(
  mod: ModuleDef,
  fun: string,
  arg: readonly unknown[] = [],
  ctx: ExecContext = fakeCtx(),
): Promise<{ value: unknown; retcode: number }> {
  const found = mod.functions[fun];
  if (!found) throw new Error(`${mod.name}.${fun} is not defined`);
  const spec = await resolveFunctionArgs(found);
  const { args, kwargs } = splitArgs(arg);
  const { bound, extra } = bindArgs(spec, `${mod.name}.${fun}`, args, kwargs);
  return unwrapRetcode(await spec.run(ctx, bound, extra));
}
