/**
 * Runs one execution-module function for a job and shapes the result as Salt's minion does
 * (`Minion._thread_return`): return value, retcode, success, and on failure a message and
 * `out: nested`. Never throws.
 */
import { SaltError } from '../kernel/errors.js';
import { bindArgs, formatInvocationError, PUB_PREFIX, pubKwargs, splitArgs } from '../kernel/jobs/args.js';
import { callFunction, functionTable } from '../kernel/jobs/exec-context.js';
import { contextRetcode, RetcodeResult } from '../kernel/jobs/retcode.js';
import type { ExecContext, FunctionSpec, Grains, UnitLogger } from '../kernel/loader/define.js';
import type { ModuleLoader } from '../kernel/loader/index.js';
import { isStringMap } from '../kernel/serial/is-string-map.js';
import { pyShortName, pyTraceback } from '../plugins/states/runtime/exception.js';
import { stateFunctions } from '../plugins/states/state-functions.js';
import { findMasterLink } from './master-link.js';

export interface FunctionResult {
  return: unknown;
  retcode: number;
  success: boolean;
  out?: string;
  /**
   * Why the function failed, for salt-call's own messages (Salt's caller catches these):
   * `usage` for bad arguments (its Usage block with the docstring), `command` for a
   * CommandExecutionError (`Error running 'fun': ...`), `exit` for keywords the function does
   * not take (the message alone, as Salt's `SystemExit`) and for a function that raises
   * `SystemExit` itself (an error named so; `status` is its exit code, 1 when absent),
   * `uncaught` for any other exception (salt-call lets it reach Salt's global exception
   * handler: `message` is `Class: text`, `traceback` Python's).
   */
  failure?: {
    kind: 'usage' | 'command' | 'exit' | 'uncaught';
    message: string;
    doc?: string;
    status?: number;
    traceback?: string;
  };
}

export interface RunEnv {
  loader: ModuleLoader;
  /** The state modules (Salt's `__states__`); absent where states cannot run. */
  stateLoader?: ModuleLoader;
  opts: Readonly<Record<string, unknown>>;
  grains: Grains;
  id: string;
  log: UnitLogger;
  /** The minion's pillar as the master last sent it (Salt's `__pillar__`), seen as `opts.pillar`. */
  readonly pillar?: Readonly<Record<string, unknown>>;
}

/** `opts` flattened: plugin options (kept in `extra`) at the top level too, as Salt's `__opts__` has them. */
const flatOpts = new WeakMap<object, Readonly<Record<string, unknown>>>();

function flat(opts: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> {
  const extra = opts.extra;
  if (!extra || typeof extra !== 'object') return opts;
  let made = flatOpts.get(opts);
  if (!made) {
    made = Object.freeze({ ...(extra as Record<string, unknown>), ...opts });
    flatOpts.set(opts, made);
  }
  return made;
}

/** `opts` with the pillar in it, made once per (opts, pillar) pair. */
const optsWithPillar = new WeakMap<object, { opts: object; with: Readonly<Record<string, unknown>> }>();

function jobOpts(env: RunEnv): Readonly<Record<string, unknown>> {
  const pillar = env.pillar;
  if (!pillar) return flat(env.opts);
  const hit = optsWithPillar.get(pillar);
  if (hit && hit.opts === env.opts) return hit.with;
  const made = Object.freeze({ ...flat(env.opts), pillar });
  optsWithPillar.set(pillar, { opts: env.opts, with: made });
  return made;
}

const EX_GENERIC = 1;

/** Salt's state functions that end by setting the job's retcode themselves (`state._set_retcode`). */
const SETS_OWN_RETCODE = new Set(
  'apply test run_request high highstate pkg show_highstate show_state_usage show_states single sls sls_id template template_str top'
    .split(' ')
    .map((f) => `state.${f}`),
);

/** Whether `spec` takes Salt's `__pub_*` keywords: `**kwargs`, or a parameter named so. */
const takesPubCache = new WeakMap<FunctionSpec, boolean>();

function takesPub(spec: FunctionSpec): boolean {
  let takes = takesPubCache.get(spec);
  if (takes === undefined) {
    const shape = spec.args && typeof spec.args !== 'function' ? spec.args.shape : {};
    takes = spec.varkw === true || Object.keys(shape).some((k) => k.startsWith(PUB_PREFIX));
    takesPubCache.set(spec, takes);
  }
  return takes;
}

/**
 * `grains` and a missing `signal` are made on first use: most functions read neither, and a
 * grains read (a stat of the grains file) plus an AbortController were ~60 µs of a `test.ping`.
 */
export function makeContext(env: RunEnv, jid: string, given: AbortSignal | undefined): ExecContext {
  let signal = given;
  let grains: Grains | undefined;
  const ctx: ExecContext = {
    opts: jobOpts(env),
    // read once per job, as before: a function sees one version of the grains
    get grains() {
      grains ??= env.grains;
      return grains;
    },
    id: env.id,
    jid,
    log: env.log,
    get signal() {
      signal ??= new AbortController().signal;
      return signal;
    },
    cache: env.loader.cache,
    functions: functionTable(env.loader),
    get master() {
      return findMasterLink(env.id);
    },
    get states() {
      const loader = env.stateLoader;
      if (!loader) return undefined;
      const value = stateFunctions(loader, ctx);
      Object.defineProperty(ctx, 'states', { value, enumerable: true });
      return value;
    },
    call: (fun, args = [], kwargs = {}) => callFunction(env.loader, ctx, fun, args, kwargs),
  };
  return ctx;
}

/** Runs `fun` with the publish's `arg` list; `pub` is the publish data of a remote job. */
export async function runFunction(
  env: RunEnv,
  fun: string,
  arg: readonly unknown[],
  jid: string,
  signal?: AbortSignal,
  pub: Readonly<Record<string, unknown>> = {},
): Promise<FunctionResult> {
  let spec: FunctionSpec | undefined;
  try {
    spec = await env.loader.get(fun);
  } catch (err) {
    env.log.error({ err, fun }, 'loading the function failed');
    spec = undefined;
  }
  if (!spec) {
    return { return: await env.loader.explain(fun), retcode: EX_GENERIC, success: false, out: 'nested' };
  }
  try {
    const { args, kwargs } = splitArgs([...arg]);
    // Salt hands a remote job's publish data to functions that take **kwargs as `__pub_*`.
    // (worked out only for a function that can receive them: most cannot)
    const all = takesPub(spec) ? { ...kwargs, ...pubKwargs(pub) } : kwargs;
    const { bound, extra } = bindArgs(spec, fun, args, all);
    const ctx = makeContext(env, jid, signal);
    let value = await spec.run(ctx, bound, extra);
    // Salt's `__context__["retcode"]`: what the last function it called set (a failed cmd.run)
    let retcode = SETS_OWN_RETCODE.has(fun) ? 0 : (contextRetcode.get(ctx) ?? 0);
    if (value instanceof RetcodeResult) {
      retcode = value.retcode;
      value = value.value;
    }
    if (retcode === 0 && isStringMap(value) && (value.result === false || value.success === false))
      retcode = EX_GENERIC;
    const result: FunctionResult = { return: value, retcode, success: retcode === 0 };
    if (spec.outputter) result.out = spec.outputter;
    return result;
  } catch (err) {
    const code = (err as { code?: string }).code;
    const message = err instanceof Error ? err.message : String(err);
    let text: string;
    let failure: FunctionResult['failure'];
    if (code === 'SALT_ERR_INVOCATION' && err instanceof SaltError) {
      text = formatInvocationError(fun, err, spec.doc);
      const kwargs = (err.details as { kind?: string } | undefined)?.kind === 'kwargs';
      failure = kwargs ? { kind: 'exit', message } : { kind: 'usage', message, doc: spec.doc };
    } else if (err instanceof Error && err.name === 'TypeError') {
      // Salt catches a TypeError from inside the function as it does bad arguments
      text = formatInvocationError(
        fun,
        new SaltError('SALT_ERR_INVOCATION', message, { details: { kind: 'type' } }),
        spec.doc,
      );
      failure = { kind: 'usage', message, doc: spec.doc };
    } else if (code === 'SALT_ERR_EXEC_COMMAND' || code === 'SALT_ERR_EXEC_TIMEOUT') {
      // Salt's minion returns `ERROR: <exc>` (salt-call prints `Error running '<fun>': <exc>`)
      text = `ERROR: ${message}`;
      if (code === 'SALT_ERR_EXEC_COMMAND') failure = { kind: 'command', message };
    } else if (code === 'SALT_ERR_CMD_NOT_FOUND') {
      // Salt's CommandNotFoundError (a `which` decorator's program is missing)
      text = `Command required for '${fun}' not found: ${message}`;
      failure = { kind: 'exit', message: text };
    } else if (err instanceof SaltError) text = `ERROR: ${message}`;
    else if (err instanceof Error && err.name === 'SystemExit') {
      text = message;
      failure = { kind: 'exit', message, status: (err as { status?: number }).status ?? 1 };
    } else {
      const traceback = pyTraceback(err);
      text = `The minion function caused an exception: ${traceback}`;
      const name = err instanceof Error ? pyShortName(err) : 'Exception';
      failure = { kind: 'uncaught', message: `${name}: ${message}`, traceback };
      // under salt-call the exception is the caller's to show (Salt's global exception handler)
      if (env.opts.__cli !== 'salt-call')
        env.log.warn({ err, fun, jid }, 'The minion function caused an exception');
    }
    const result: FunctionResult = { return: text, retcode: EX_GENERIC, success: false, out: 'nested' };
    if (failure) result.failure = failure;
    return result;
  }
}
