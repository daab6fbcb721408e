/**
 * The parts of an execution context (`ExecContext`) that depend only on its module loader, shared
 * by every place that builds one (the minion's jobs, the master's own minion for orchestration):
 * the function table a context shows, and `ctx.call`, which binds arguments as a job does.
 */
import { SaltError } from '../errors.js';
import type { ExecContext } from '../loader/define.js';
import type { ModuleLoader } from '../loader/module-loader.js';
import { bindArgs } from './args.js';
import { contextRetcode, RetcodeResult } from './retcode.js';

const tables = new WeakMap<ModuleLoader, ExecContext['functions']>();

/** `loader`'s functions as a context shows them (Salt's `__salt__` listing): one object per loader. */
export function functionTable(loader: ModuleLoader): ExecContext['functions'] {
  let table = tables.get(loader);
  if (!table) {
    table = {
      list: (moduleName) => loader.listFunctions(moduleName),
      modules: () => loader.listModules(),
      get: (fun) => loader.get(fun),
      moduleDoc: (name) => loader.moduleDoc(name),
      explain: (fun) => loader.explain(fun),
      provider: (name) => loader.providerOf(name),
    };
    tables.set(loader, table);
  }
  return table;
}

/** `ctx.call(fun, args, kwargs)` through `loader`: the function's value; a retcode it sets is kept for the job. */
export async function callFunction(
  loader: ModuleLoader,
  ctx: ExecContext,
  fun: string,
  args: readonly unknown[],
  kwargs: Readonly<Record<string, unknown>>,
): Promise<unknown> {
  const spec = await loader.get(fun);
  if (!spec) throw new SaltError('SALT_ERR_LOADER_NOT_AVAILABLE', await loader.explain(fun));
  const { bound, extra } = bindArgs(spec, fun, [...args], { ...kwargs });
  const value = await spec.run(ctx, bound, extra);
  if (!(value instanceof RetcodeResult)) return value;
  contextRetcode.set(ctx, value.retcode);
  return value.value;
}
