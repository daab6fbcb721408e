/**
 * The argument schemas of the `cmd` functions: each argument defined once, and every
 * function's list in Salt's positional order (`salt/modules/cmdmod.py` signatures).
 */
import { z } from 'zod';
import { pyFlag } from './_coerce.js';

const opt = () => z.unknown().optional();

/** Salt's `DEFAULT_SHELL`: `$SHELL` of the process, else /bin/sh (`grains.extra.shell`), fixed at load. */
export const DEFAULT_SHELL = process.env.SHELL || '/bin/sh';

// Each argument once; every function lists its own in Salt's positional order.
const F = {
  cmd: z.unknown().refine((v) => v !== undefined && v !== null, 'a command is required'),
  source: z.string(),
  args: opt(),
  cwd: opt(),
  stdin: opt(),
  runas: z.string().nullish(),
  group: z.string().nullish(),
  shell: z.string().nullish().default(DEFAULT_SHELL),
  python_shell: z.boolean().nullish(),
  env: opt(),
  clean_env: pyFlag(z, false),
  template: opt(),
  rstrip: pyFlag(z, true),
  umask: opt(),
  output_encoding: z.string().nullish(),
  output_loglevel: opt().default('debug'),
  log_callback: opt(),
  hide_output: pyFlag(z, false),
  timeout: opt(),
  reset_system_locale: pyFlag(z, true),
  ignore_retcode: pyFlag(z, false),
  saltenv: opt(),
  use_vt: pyFlag(z, false),
  redirect_stderr: pyFlag(z, true),
  bg: pyFlag(z, false),
  password: opt(),
  encoded_cmd: pyFlag(z, false),
  raise_err: pyFlag(z, false),
  prepend_path: z.string().nullish(),
  success_retcodes: opt(),
  success_stdout: opt(),
  success_stderr: opt(),
};
type Field = keyof typeof F;

function pick<K extends Field>(...keys: K[]): z.ZodObject<{ [P in K]: (typeof F)[P] }> {
  const shape: Partial<Record<Field, z.ZodType>> = {};
  for (const k of keys) shape[k] = F[k];
  return z.object(shape as { [P in K]: (typeof F)[P] });
}

/** The bound arguments of any `cmd` runner (each function has a subset). */
export type AnyArgs = Partial<{ [K in Field]: z.output<(typeof F)[K]> }>;

const HEAD = [
  'cmd',
  'cwd',
  'stdin',
  'runas',
  'group',
  'shell',
  'python_shell',
  'env',
  'clean_env',
  'template',
] as const;
const TAIL = ['prepend_path', 'success_retcodes', 'success_stdout', 'success_stderr'] as const;
const OUT = [
  'rstrip',
  'umask',
  'output_encoding',
  'output_loglevel',
  'log_callback',
  'hide_output',
  'timeout',
] as const;
const ENV_TAIL = ['reset_system_locale', 'ignore_retcode', 'saltenv', 'use_vt'] as const;

export const runArgs = pick(
  ...HEAD,
  ...OUT,
  ...ENV_TAIL,
  'redirect_stderr',
  'bg',
  'password',
  'encoded_cmd',
  'raise_err',
  ...TAIL,
);
export const shellArgs = pick(
  'cmd',
  'cwd',
  'stdin',
  'runas',
  'group',
  'shell',
  'env',
  'clean_env',
  'template',
  ...OUT,
  ...ENV_TAIL,
  'bg',
  'password',
  ...TAIL,
);
export const stdArgs = pick(...HEAD, ...OUT, ...ENV_TAIL, 'password', ...TAIL);
export const runAllArgs = pick(
  ...HEAD,
  ...OUT,
  ...ENV_TAIL,
  'redirect_stderr',
  'password',
  'encoded_cmd',
  ...TAIL,
).extend({ redirect_stderr: pyFlag(z, false) });
export const retcodeArgs = pick(
  ...HEAD,
  'umask',
  'output_encoding',
  'output_loglevel',
  'log_callback',
  'timeout',
  ...ENV_TAIL,
  'password',
  'success_retcodes',
  'success_stdout',
  'success_stderr',
);
export const scriptArgs = pick(
  'source',
  'args',
  'cwd',
  'stdin',
  'runas',
  'group',
  'shell',
  'python_shell',
  'env',
  'template',
  'umask',
  'output_encoding',
  'output_loglevel',
  'log_callback',
  'hide_output',
  'timeout',
  'reset_system_locale',
  'saltenv',
  'use_vt',
  'bg',
  'password',
  'success_retcodes',
  'success_stdout',
  'success_stderr',
);
export const scriptRetcodeArgs = pick(
  'source',
  'args',
  'cwd',
  'stdin',
  'runas',
  'group',
  'shell',
  'python_shell',
  'env',
  'template',
  'umask',
  'timeout',
  'reset_system_locale',
  'saltenv',
  'output_encoding',
  'output_loglevel',
  'log_callback',
  'use_vt',
  'password',
  'success_retcodes',
  'success_stdout',
  'success_stderr',
).extend({ template: opt().default('jinja') });
export const runBgArgs = pick(
  'cmd',
  'cwd',
  'runas',
  'group',
  'shell',
  'python_shell',
  'env',
  'clean_env',
  'template',
  'umask',
  'timeout',
  'output_encoding',
  'output_loglevel',
  'log_callback',
  'reset_system_locale',
  'ignore_retcode',
  'saltenv',
  'password',
  ...TAIL,
);
