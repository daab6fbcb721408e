/**
 * The probes of Salt's `test` module (`salt/modules/test.py`) that exercise the platform rather
 * than answer a question: an assertion, a named exception, a deprecation warning, the loader's
 * report on itself, the opts package the master compiles states with, and the moved `tty`.
 */
import { readdirSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  defineFunction,
  type ExecContext,
  SALT_ERR_EXEC_COMMAND,
  SALT_ERR_INVOCATION,
} from '../kernel/index.js';
import { PyTuple, pyRepr, pyTruthy } from '../kernel/util.js';
import { pythonError } from './_py-exception.js';

const cli = (example: string) => `\n\nCLI Example:\n\n.. code-block:: bash\n\n    salt '*' ${example}`;

/** Python's built-in exception classes, by name (`BaseException` itself has no exception base). */
const BUILTIN_EXCEPTIONS = new Set(
  `ArithmeticError AssertionError AttributeError BaseExceptionGroup BlockingIOError BrokenPipeError
  BufferError BytesWarning ChildProcessError ConnectionAbortedError ConnectionError
  ConnectionRefusedError ConnectionResetError DeprecationWarning EOFError EncodingWarning
  EnvironmentError Exception ExceptionGroup FileExistsError FileNotFoundError FloatingPointError
  FutureWarning GeneratorExit IOError ImportError ImportWarning IndentationError IndexError
  InterruptedError IsADirectoryError KeyError KeyboardInterrupt LookupError MemoryError
  ModuleNotFoundError NameError NotADirectoryError NotImplementedError OSError OverflowError
  PendingDeprecationWarning PermissionError ProcessLookupError RecursionError ReferenceError
  ResourceWarning RuntimeError RuntimeWarning StopAsyncIteration StopIteration SyntaxError
  SyntaxWarning SystemError SystemExit TabError TimeoutError TypeError UnboundLocalError
  UnicodeDecodeError UnicodeEncodeError UnicodeError UnicodeTranslateError UnicodeWarning
  UserWarning ValueError Warning ZeroDivisionError`.split(/\s+/),
);

/** Python built-ins that are classes but not exceptions (Salt logs "<name> is not an exception"). */
const BUILTIN_CLASSES = new Set(
  `BaseException bool bytearray bytes classmethod complex dict enumerate filter float frozenset int
  list map memoryview object property range reversed set slice staticmethod str super tuple type zip`.split(
    /\s+/,
  ),
);

/** `salt.exceptions` classes salt-call reports as "Error running ..." (CommandExecutionError's family). */
const COMMAND_ERRORS = new Set(
  `ArgumentValueError CheckError CodePageError CommandExecutionError InvalidConfigError InvalidEntityError
  VMwareApiError VMwareConnectionError VMwareFileNotFoundError VMwareMultipleObjectsError VMwareNotFoundError
  VMwareObjectExistsError VMwareObjectNotFoundError VMwareObjectRetrievalError VMwarePowerOnError
  VMwareRuntimeError VMwareSaltError VMwareSystemError VMwareVmCreationError VMwareVmRegisterError`.split(
    /\s+/,
  ),
);

/** The other `salt.exceptions` classes (each an exception salt-call does not handle). */
const OTHER_SALT_ERRORS = new Set(
  `AuthenticationError AuthorizationError CommandNotFoundError EauthAuthenticationError FileLockError
  FileserverConfigError GitLockError GitRemoteError InvalidKeyError LoaderError LoggingRuntimeError
  MasterExit MinionError MissingSmb NotImplemented NxosCliError NxosClientError NxosError
  NxosRequestNotSupported PkgParseError PublishError SaltCacheError SaltClientError SaltClientTimeout
  SaltCloudConfigError SaltCloudException SaltCloudExecutionFailure SaltCloudExecutionTimeout
  SaltCloudNotFound SaltCloudPasswordError SaltCloudSystemExit SaltConfigurationError
  SaltDaemonNotRunning SaltDeserializationError SaltException SaltMasterError
  SaltMasterUnresolvableError SaltNoMinionsFound SaltRenderError SaltReqTimeoutError SaltRunnerError
  SaltSyndicMasterError SaltSystemExit SaltValidationError SaltWheelError TemplateError
  TimedProcTimeoutError TimeoutError TokenAuthenticationError UnsupportedAlgorithm`.split(/\s+/),
);

/** `str(exc)` of a Python exception made with `args`: '' for none, the one, else the tuple's repr. */
function exceptionText(args: readonly unknown[], cls: string): string {
  if (args.length === 0) return '';
  // KeyError's str() is its key's repr: KeyError: 'x'
  if (args.length === 1) return typeof args[0] === 'string' && cls !== 'KeyError' ? args[0] : pyRepr(args[0]);
  return pyRepr(new PyTuple([...args]));
}

/** Salt's `test.raise_exception`: raise the named exception, or log and answer False. */
function raiseException(ctx: ExecContext, name: string, args: readonly unknown[]): false {
  const salted = name.startsWith('salt.exceptions.');
  const cls = salted ? name.slice('salt.exceptions.'.length) : name;
  const message = exceptionText(args, cls);
  if (salted) {
    if (cls === 'SaltInvocationError') throw new SALT_ERR_INVOCATION(message);
    if (COMMAND_ERRORS.has(cls)) throw new SALT_ERR_EXEC_COMMAND(message);
    if (OTHER_SALT_ERRORS.has(cls)) throw pythonError(`salt.exceptions.${cls}`, message);
  } else {
    if (cls === 'TypeError') throw new SALT_ERR_INVOCATION(message);
    if (BUILTIN_EXCEPTIONS.has(cls)) throw pythonError(cls, message);
    if (BUILTIN_CLASSES.has(cls)) {
      ctx.log.error(`${name} is not an exception`);
      return false;
    }
  }
  ctx.log.error(`No such exception: ${name}`);
  return false;
}

/** The folders Salt's `_module_dirs` would scan for execution modules here: extension ones, then the built-in. */
function moduleDirs(ctx: ExecContext): string[] {
  const dirs: string[] = [];
  const ext = ctx.opts.extension_modules;
  if (typeof ext === 'string') dirs.push(join(ext, 'modules'));
  const extra = ctx.opts.module_dirs;
  if (Array.isArray(extra)) for (const d of extra) if (typeof d === 'string') dirs.push(join(d, 'modules'));
  dirs.push(dirname(fileURLToPath(import.meta.url)));
  return dirs.filter((d) => isAbsolute(d));
}

function filesOf(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** Salt's `test.not_loaded`: the module files of the module folders that gave no loaded module. */
async function notLoaded(ctx: ExecContext): Promise<string[]> {
  const providers = new Set<string>();
  for (const mod of await ctx.functions.modules()) {
    const stem = await ctx.functions.provider(mod);
    if (stem) providers.add(stem);
  }
  const out = new Set<string>();
  for (const dir of moduleDirs(ctx)) {
    for (const file of filesOf(dir)) {
      if (file.startsWith('_') || !/\.(js|mjs|ts|py)$/.test(file) || /\.(test|d)\./.test(file)) continue;
      const name = file.split('.')[0]!;
      if (!providers.has(name)) out.add(name);
    }
  }
  return [...out].sort();
}

/**
 * Salt's `test.module_report`. Salt's loader yields only `mod.fn` keys and its attribute views
 * are not looked up by those keys, so every function lands in `functions` and both `missing_*`.
 */
async function moduleReport(ctx: ExecContext) {
  const functions = await ctx.functions.list();
  return {
    functions,
    function_attrs: [] as string[],
    function_subs: [] as string[],
    modules: [] as string[],
    module_attrs: [] as string[],
    missing_attrs: [...functions],
    missing_subs: [...functions],
  };
}

/** `test.*` functions that probe the platform; spread into the `test` module's functions. */
export const testProbeFunctions = {
  assertion: defineFunction({
    args: (z) => z.object({ assertion: z.unknown() }),
    doc: `Assert the given argument${cli('test.assertion False')}`,
    run: (_ctx, { assertion }) => {
      if (!pyTruthy(assertion)) throw pythonError('AssertionError', '');
      return null;
    },
  }),
  attr_call: defineFunction({
    doc: `Call grains.items via the attribute${cli('test.attr_call')}`,
    run: (ctx) => ctx.call('grains.items'),
  }),
  deprecation_warning: defineFunction({
    doc: `Return True, but also produce two DeprecationWarnings: one by version (Oganesson), one by a date far away.${cli('test.deprecation_warning')}`,
    run: (ctx) => {
      ctx.log.warn('DeprecationWarning: This is a test deprecation warning by version.');
      ctx.log.warn(
        'DeprecationWarning: This is a test deprecation warning by date very far into the future (3000-01-01).',
      );
      return true;
    },
  }),
  module_report: defineFunction({
    doc: `Return a dict of all the execution functions, with a report on how they can be referenced${cli('test.module_report')}`,
    run: (ctx) => moduleReport(ctx),
  }),
  not_loaded: defineFunction({
    doc: `List the modules that were not loaded by the loader${cli('test.not_loaded')}`,
    run: (ctx) => notLoaded(ctx),
  }),
  opts_pkg: defineFunction({
    doc: `Return an \`\`opts\`\` package with the \`\`grains\`\` and \`\`opts\`\` for this Minion.\nThis is primarily used to create the options used for Master side\nstate compiling routines${cli('test.opts_pkg')}`,
    run: (ctx) => ({ ...ctx.opts, grains: ctx.grains }),
  }),
  raise_exception: defineFunction({
    args: (z) => z.object({ name: z.string() }),
    varargs: true,
    varkw: true,
    doc: `Raise an exception: a Python built-in's name, or salt.exceptions.<name>. When no such exception exists, log it and return False.${cli('test.raise_exception TypeError "An integer is required"')}`,
    run: (ctx, { name }, extra) => raiseException(ctx, name, extra.args),
  }),
  tty: defineFunction({
    varargs: true,
    varkw: true,
    doc: `Deprecated! Moved to cmd.tty${cli("test.tty tty0 'This is a test'")}`,
    run: () => 'ERROR: This function has been moved to cmd.tty',
  }),
};
