/**
 * Builds the {@link RunnerContext} a runner function receives in its runner process.
 */
import {
  type JobCacheView,
  type MinionClient,
  type RunnerContext,
  SALT_ERR_RUNNER,
  type UnitLogger,
  type WheelContext,
} from '../../kernel/index.js';
import type { RunnerLoader } from '../../kernel/services.js';
import { bindArgs, globMatch } from '../../kernel/util.js';

export interface RunnerContextParts {
  opts: Readonly<Record<string, unknown>>;
  log: UnitLogger;
  jid: string;
  user: string;
  fire(tag: string, data: Record<string, unknown>): void;
  client: MinionClient;
  jobs: JobCacheView;
  runners: RunnerLoader<RunnerContext>;
  wheel?: RunnerLoader<WheelContext>;
  signal: AbortSignal;
}

function firstLine(doc: string | undefined): string {
  return doc ?? '';
}

/** `{mod.fun: doc}` of the functions a loader has, filtered by a module name or glob. */
export async function loaderDocs<C>(
  loader: RunnerLoader<C>,
  match?: string,
): Promise<Record<string, string>> {
  const names = await loader.listFunctions();
  const out: Record<string, string> = {};
  for (const name of names) {
    if (match && !(name === match || name.startsWith(`${match}.`) || globMatch(match, name))) continue;
    out[name] = firstLine(await loader.functionDoc(name));
  }
  return out;
}

/** The context, and a reader of the retcode the function set. */
export function createRunnerContext(parts: RunnerContextParts): { ctx: RunnerContext; retcode(): number } {
  let code = 0;
  const ctx: RunnerContext = {
    opts: parts.opts,
    log: parts.log,
    jid: parts.jid,
    user: parts.user,
    client: parts.client,
    jobs: parts.jobs,
    signal: parts.signal,
    fireEvent: (tag, data) => parts.fire(tag, data),
    progress: (data) => parts.fire(`salt/run/${parts.jid}/progress`, data),
    warn: (message) => parts.fire(`salt/run/${parts.jid}/print`, { text: `${message}\n`, stream: 'stderr' }),
    setRetcode: (c) => {
      code = c;
    },
    async call(fun, args = [], kwargs = {}) {
      const spec = await parts.runners.get(fun);
      if (!spec) throw new SALT_ERR_RUNNER(await parts.runners.explain(fun));
      const bound = bindArgs(spec as unknown as Parameters<typeof bindArgs>[0], fun, args, kwargs);
      return spec.run(ctx, bound.bound as never, bound.extra);
    },
    async wheel(fun, args = [], kwargs = {}) {
      const spec = await parts.wheel?.get(fun);
      if (!spec || !parts.wheel) throw new SALT_ERR_RUNNER(`'${fun}' is not available.`);
      const bound = bindArgs(spec as unknown as Parameters<typeof bindArgs>[0], fun, args, kwargs);
      return spec.run(ctx, bound.bound as never, bound.extra);
    },
    functions: {
      async docs(kind, match) {
        if (kind === 'runner') return loaderDocs(parts.runners, match);
        if (kind === 'wheel') return parts.wheel ? loaderDocs(parts.wheel, match) : {};
        const replies = await parts.client.cmd('*', 'sys.doc', match ? [match] : []);
        const merged: Record<string, string> = {};
        for (const docs of Object.values(replies)) {
          if (docs && typeof docs === 'object') Object.assign(merged, docs as Record<string, string>);
        }
        return merged;
      },
    },
  };
  return { ctx, retcode: () => code };
}
