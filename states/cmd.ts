/**
 * Salt's `cmd` state module (`salt/states/cmd.py`): run commands and scripts as states.
 * `cmd.run` and `cmd.script` always run (guard them with `creates`/`unless`/`onlyif`, which
 * the state runtime handles); `cmd.wait`/`cmd.wait_script` do nothing until a `watch`
 * requisite fires `mod_watch`. The command's `{pid, retcode, stdout, stderr}` become the
 * changes; `stateful` lets the command report its own changes (see `_cmd-stateful.ts`).
 */
import { stat } from 'node:fs/promises';
import { pyTruthy } from '../kernel/python/index.js';
import {
  defineState,
  defineStateModule,
  type StateContext,
  type StateReturn,
} from '../plugins/states/index.js';
import { callState } from './_cmd-call.js';
import { reinterpretedState } from './_cmd-stateful.js';

type Args = Record<string, unknown>;

/** Salt's `stateful`: true, or `[{test_name: ...}]` (the command to run under test=True). */
function statefulOf(stateful: unknown): { on: boolean; testName?: string } {
  if (Array.isArray(stateful)) {
    const first = stateful[0] as Record<string, unknown> | undefined;
    if (first && typeof first === 'object' && 'test_name' in first)
      return { on: true, testName: String(first.test_name) };
    return { on: true };
  }
  return { on: stateful === true };
}

const errText = (err: unknown): string => (err instanceof Error ? err.message : String(err));

async function isDir(p: string): Promise<boolean> {
  try {
    return (await stat(p)).isDirectory();
  } catch {
    return false;
  }
}

/** Keywords for the execution function, without the unset ones (Salt passes None). */
function defined(o: Args): Args {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null));
}

const RUN_KEYS = [
  'cwd',
  'root',
  'runas',
  'shell',
  'env',
  'prepend_path',
  'output_loglevel',
  'hide_output',
  'use_vt',
  'success_retcodes',
  'success_stdout',
  'success_stderr',
] as const;

async function runCmd(ctx: StateContext, a: Args, kwargs: Args): Promise<StateReturn> {
  let name = String(a.name);
  const sf = statefulOf(a.stateful);
  if (ctx.test && sf.testName !== undefined) name = sf.testName;
  const ret: StateReturn = { name, changes: {}, result: false, comment: '' };
  const env = a.env;
  if (env !== undefined && env !== null && typeof env !== 'object') {
    ret.comment = "Invalidly-formatted 'env' parameter. See documentation.";
    return ret;
  }
  if (ctx.test && sf.testName === undefined) {
    ret.result = null;
    ret.comment = `Command "${name}" would have been executed`;
    ret.changes = { cmd: name };
    return sf.on ? reinterpretedState(ret) : ret;
  }
  const cwd = a.cwd;
  if (cwd && !(await isDir(String(cwd)))) {
    ret.comment = `Desired working directory "${String(cwd)}" is not available`;
    return ret;
  }
  const cmdKwargs: Args = { ...kwargs };
  for (const k of RUN_KEYS) cmdKwargs[k] = a[k];
  let all: Record<string, unknown>;
  try {
    all = (await ctx.call(
      'cmd.run_all',
      [],
      defined({ ...cmdKwargs, cmd: name, timeout: a.timeout, python_shell: true }),
    )) as Record<string, unknown>;
  } catch (err) {
    ret.comment = errText(err);
    return ret;
  }
  let out: StateReturn = { ...ret, changes: all, result: !all.retcode, comment: `Command "${name}" run` };
  if (a.ignore_timeout === true) {
    const stdout = typeof all.stdout === 'string' ? all.stdout : '';
    if (all.retcode === 1 && stdout.includes('Timed out after')) {
      all.retcode = 0;
      out.result = true;
    }
  }
  if (sf.on) out = reinterpretedState(out);
  if (ctx.test && all.retcode === 0 && Object.keys(out.changes).length > 0) out.result = null;
  return out;
}

async function runScript(ctx: StateContext, a: Args, kwargs: Args): Promise<StateReturn> {
  let name = String(a.name);
  const sf = statefulOf(a.stateful);
  if (ctx.test && sf.testName !== undefined) name = sf.testName;
  const ret: StateReturn = { name, changes: {}, result: false, comment: '' };
  const isObj = (v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v);
  if (a.env !== undefined && a.env !== null && typeof a.env !== 'object') {
    ret.comment = "Invalidly-formatted 'env' parameter. See documentation.";
    return ret;
  }
  if (a.context && !isObj(a.context)) {
    ret.comment = "Invalidly-formatted 'context' parameter. Must be formed as a dict.";
    return ret;
  }
  if (a.defaults && !isObj(a.defaults)) {
    ret.comment = "Invalidly-formatted 'defaults' parameter. Must be formed as a dict.";
    return ret;
  }
  const context = { ...((a.defaults as Args) ?? {}), ...((a.context as Args) ?? {}) };
  const cmdKwargs: Args = { ...kwargs };
  for (const k of ['runas', 'password', 'shell', 'env', 'cwd', 'template', 'timeout', 'output_loglevel'])
    cmdKwargs[k] = a[k];
  Object.assign(cmdKwargs, {
    hide_output: a.hide_output,
    use_vt: a.use_vt,
    saltenv: ctx.saltenv,
    success_retcodes: a.success_retcodes,
    success_stdout: a.success_stdout,
    success_stderr: a.success_stderr,
  });
  if (Object.keys(context).length > 0) cmdKwargs.context = context;
  const source = a.source === undefined || a.source === null ? name : String(a.source);
  if (!cmdKwargs.args && name.split(/\s+/).filter(Boolean).length > 1) {
    const sp = name.indexOf(' ');
    cmdKwargs.args = name.slice(sp + 1);
  }
  if (ctx.test && sf.testName === undefined) {
    ret.result = null;
    ret.comment = `Command '${name}' would have been executed`;
    return sf.on ? reinterpretedState(ret) : ret;
  }
  if (a.cwd && !(await isDir(String(a.cwd)))) {
    ret.comment = `Desired working directory "${String(a.cwd)}" is not available`;
    return ret;
  }
  let all: Record<string, unknown>;
  try {
    all = (await ctx.call('cmd.script', [source], defined({ ...cmdKwargs, python_shell: true }))) as Args;
  } catch (err) {
    ret.comment = errText(err);
    return ret;
  }
  let out: StateReturn = { ...ret, changes: all };
  out.result = kwargs.retcode ? !all : !all.retcode;
  out.comment = all.cache_error
    ? `Unable to cache script ${source} from saltenv '${ctx.saltenv}'`
    : `Command '${name}' run`;
  if (sf.on) out = reinterpretedState(out);
  if (ctx.test && all.retcode === 0 && Object.keys(out.changes).length > 0) out.result = null;
  return out;
}

const runArgs = (z: typeof import('zod').z) =>
  z.object({
    name: z.string(),
    cwd: z.string().nullish(),
    root: z.string().nullish(),
    runas: z.string().nullish(),
    shell: z.string().nullish(),
    env: z.unknown().optional(),
    prepend_path: z.string().nullish(),
    // Salt's defaults, as sys.state_argspec shows them; cmd.run_all's own are the same
    stateful: z.unknown().default(false),
    output_loglevel: z.unknown().default('debug'),
    hide_output: z.boolean().default(false),
    timeout: z.unknown().optional(),
    ignore_timeout: z.boolean().default(false),
    use_vt: z.boolean().default(false),
    success_retcodes: z.unknown().optional(),
    success_stdout: z.unknown().optional(),
    success_stderr: z.unknown().optional(),
  });

const scriptArgs = (z: typeof import('zod').z) =>
  z.object({
    name: z.string(),
    source: z.string().nullish(),
    template: z.string().nullish(),
    cwd: z.string().nullish(),
    runas: z.string().nullish(),
    password: z.string().nullish(),
    shell: z.string().nullish(),
    env: z.unknown().optional(),
    stateful: z.unknown().default(false),
    timeout: z.unknown().optional(),
    use_vt: z.boolean().default(false),
    output_loglevel: z.unknown().default('debug'),
    hide_output: z.boolean().default(false),
    defaults: z.unknown().optional(),
    context: z.unknown().optional(),
    success_retcodes: z.unknown().optional(),
    success_stdout: z.unknown().optional(),
    success_stderr: z.unknown().optional(),
  });

const nothing = (name: string): StateReturn => ({ name, changes: {}, result: true, comment: '' });
/** mod_watch's refusals: Salt's literal puts comment before result. */
const watchRefused = (name: string, comment: string): StateReturn => ({
  name,
  changes: {},
  comment,
  result: false,
});

/** Salt's `cmd.wait`/`cmd.watch` signature: run's less what mod_watch alone uses (the command runs through mod_watch). */
const waitArgs = (z: typeof import('zod').z) =>
  runArgs(z)
    .omit({ prepend_path: true, timeout: true, ignore_timeout: true })
    .extend({ env: z.unknown().default([]) });

/** Salt's `cmd.wait_script` signature: script's less `password`, `timeout`, `defaults`, `context`. */
const waitScriptArgs = (z: typeof import('zod').z) =>
  scriptArgs(z).omit({ password: true, timeout: true, defaults: true, context: true });

/** Salt's `cmd.call` signature. */
const callArgs = (z: typeof import('zod').z) =>
  z.object({
    name: z.string(),
    func: z.unknown(),
    args: z.unknown().default([]),
    kws: z.unknown().optional(),
    output_loglevel: z.unknown().default('debug'),
    hide_output: z.boolean().default(false),
    use_vt: z.boolean().default(false),
  });

const wait = defineState({
  args: waitArgs,
  varkw: true,
  doc: 'Run the given command only when a watch requisite fires (through mod_watch); otherwise does nothing.',
  run: (_ctx, { name }) => nothing(name),
});

const waitScript = defineState({
  args: waitScriptArgs,
  varkw: true,
  doc: 'Download a script and run it only when a watch requisite fires (through mod_watch).',
  run: (_ctx, { name }) => nothing(name),
});

/** The keywords a watch passes, less the state system's own (`sfun`, `__reqs__`...). */
function ownKwargs(kwargs: Args): Args {
  return Object.fromEntries(Object.entries(kwargs).filter(([k]) => k !== 'sfun' && !k.startsWith('__')));
}

export default defineStateModule({
  name: 'cmd',
  doc: 'Execution of arbitrary commands (cmd.run, cmd.script, cmd.wait, cmd.wait_script).',
  functions: {
    run: defineState({
      args: runArgs,
      varkw: true,
      doc: 'Run a command if certain circumstances are met; returns {pid, retcode, stdout, stderr} as changes.',
      run: (ctx, a, extra) => runCmd(ctx, a, ownKwargs(extra.kwargs)),
    }),
    script: defineState({
      args: scriptArgs,
      varkw: true,
      doc: 'Download a script (salt://, http://, a local path) and run it, with optional args.',
      run: (ctx, a, extra) => runScript(ctx, a, ownKwargs(extra.kwargs)),
    }),
    call: defineState({
      args: callArgs,
      varkw: true,
      doc: "Invoke a Python callable `func(*args, **kws)`; an SLS's func is data, so Salt's TypeError 'object is not callable'.",
      run: (_ctx, { name, func }) => callState(name, func),
    }),
    wait_call: defineState({
      args: (z) =>
        z.object({
          name: z.string(),
          func: z.unknown(),
          args: z.unknown().default([]),
          kws: z.unknown().optional(),
          stateful: z.unknown().default(false),
          use_vt: z.boolean().default(false),
          output_loglevel: z.unknown().default('debug'),
          hide_output: z.boolean().default(false),
        }),
      varkw: true,
      doc: 'Run cmd.call only when a watch requisite fires (through mod_watch); otherwise does nothing.',
      run: (_ctx, { name }) => nothing(name),
    }),
    wait,
    watch: wait,
    wait_script: waitScript,
    mod_watch: defineState({
      args: (z) => z.object({ name: z.string() }),
      varkw: true,
      doc: 'Run the watched cmd.wait/cmd.run/cmd.script/cmd.wait_script state when a watch requisite fires.',
      async run(ctx, { name }, extra) {
        const kw = extra.kwargs;
        const sfun = String(kw.sfun);
        const rest = ownKwargs(kw);
        if (['wait', 'run', 'watch'].includes(sfun)) {
          const { stateful, ...noState } = rest;
          if (stateful) return reinterpretedState(await runCmd(ctx, { name, ...noState }, {}));
          return runCmd(ctx, { name, ...rest }, {});
        }
        if (sfun === 'wait_script' || sfun === 'script') {
          const { stateful, ...noState } = rest;
          if (stateful) return reinterpretedState(await runScript(ctx, { name, ...noState }, {}));
          return runScript(ctx, { name, ...rest }, {});
        }
        if (sfun === 'wait_call' || sfun === 'call') {
          if (pyTruthy(kw.func)) return callState(name, kw.func);
          return watchRefused(name, `cmd.${sfun} needs a named parameter func`);
        }
        return watchRefused(
          name,
          `cmd.${sfun} does not work with the watch requisite, please use cmd.wait or cmd.wait_script`,
        );
      },
    }),
  },
});
