/**
 * Salt's `virtualenv` execution module (`salt/modules/virtualenv_mod.py`): create Python
 * virtual environments with the `virtualenv` program, or Python's own `venv` when no
 * `virtualenv` is installed, and ask one where its packages and resources are.
 *
 * Where Salt runs `venv` with its own interpreter (`sys.executable`), tsalt has none of its own:
 * it runs the `python3` the minion's PATH finds (`python` when there is no `python3`).
 */
import { existsSync } from 'node:fs';
import { chmod, chown, copyFile, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import {
  defineFunction,
  defineModule,
  type ExecContext,
  SALT_ERR_EXEC_COMMAND,
  SALT_ERR_INVOCATION,
} from '../kernel/index.js';
import { pyStr } from '../kernel/util.js';
import { passwdByName } from './_passwd-db.js';
import { venvPython, verifyVirtualenv } from './_venv-paths.js';
import { which } from './_which.js';

type RunAll = { pid: number; retcode: number; stdout: string; stderr: string };
type Z = typeof import('zod').z;

/** The `virtualenv` programs Salt looks for, in its order (its versioned name left out). */
const KNOWN_BINARY_NAMES = ['virtualenv3', 'virtualenv'];

/** The `venv_bin` used when none is given: pillar, then config, then a found program, else `venv`. */
async function defaultVenvBin(ctx: ExecContext): Promise<string> {
  const fromPillar = await ctx.call('pillar.get', ['venv_bin']).catch(() => undefined);
  if (typeof fromPillar === 'string' && fromPillar) return fromPillar;
  const fromOpts = ctx.opts.venv_bin;
  if (typeof fromOpts === 'string' && fromOpts) return fromOpts;
  for (const name of KNOWN_BINARY_NAMES) if (which(name)) return which(name) as string;
  return 'venv';
}

/** Salt's `safe_py_code`: refuses an argument spliced into Python code that could do more. */
function verifySafePyCode(...args: unknown[]): void {
  const bads = ['import', ';', 'subprocess', 'eval', 'open', 'file', 'exec', 'input'];
  for (const arg of args) {
    const text = pyStr(arg);
    if (bads.some((bad) => text.includes(bad)))
      throw new SALT_ERR_INVOCATION(`Unsafe python code detected in '${text}'`);
  }
}

function runAll(ctx: ExecContext, cmd: string[], kw: Record<string, unknown>): Promise<RunAll> {
  return ctx.call('cmd.run_all', [cmd], { python_shell: false, ...kw }) as Promise<RunAll>;
}

/** Runs `code` with the environment's interpreter through `cmd.exec_code_all`, as Salt; its stdout, or Salt's error of both streams. */
async function venvCode(ctx: ExecContext, venv: string, code: string): Promise<string> {
  const r = (await ctx.call('cmd.exec_code_all', [verifyVirtualenv(venv), code])) as RunAll;
  if (r.retcode !== 0) throw new SALT_ERR_EXEC_COMMAND(`${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

/** Salt's `virtualenv_ver`: the version `<venv_bin> --version` prints, as numbers. */
async function virtualenvVer(ctx: ExecContext, venvBin: string, user: unknown): Promise<number[]> {
  const cmd = [venvBin, '--version'];
  const r = await runAll(ctx, cmd, { runas: user ?? null, redirect_stderr: true });
  if (r.retcode > 0 || !r.stdout.trim()) {
    throw new SALT_ERR_EXEC_COMMAND(
      `Unable to get the virtualenv version output using '${pyStr(cmd)}'. Returned data: ${pyStr(r)}`,
    );
  }
  const version = r.stdout
    .trim()
    .split(/\s+/)
    .filter((x) => /^\d.\d*/.test(x))
    .join('');
  return version
    .replace(/(rc|\+ds).*$/, '')
    .split('.')
    .map((p) => Number.parseInt(p, 10));
}

const atLeast = (v: readonly number[], min: readonly number[]): boolean => {
  for (let i = 0; i < Math.max(v.length, min.length); i++) {
    const d = (v[i] ?? 0) - (min[i] ?? 0);
    if (d !== 0) return d > 0;
  }
  return true;
};

const blank = (v: unknown): boolean => v === undefined || v === null || String(v).trim() === '';

/** Salt's `_install_script`: fetches a bootstrap script and runs it with the environment's python. */
async function installScript(
  ctx: ExecContext,
  source: string,
  cwd: string,
  python: string,
  user: unknown,
  saltenv: string,
): Promise<RunAll> {
  const dir = await mkdtemp(join(cwd, 'tmp'));
  const tmp = join(dir, 'script.py');
  try {
    const cached = (await ctx.call('cp.cache_file', [source, saltenv])) as string | false;
    if (!cached) return { pid: 0, retcode: 1, stdout: '', stderr: `Unable to fetch ${source}` };
    await copyFile(cached, tmp);
    await chmod(tmp, 0o500);
    const owner = typeof user === 'string' ? await passwdByName(user) : undefined;
    if (owner) await chown(tmp, owner.uid, -1);
    return await runAll(ctx, [python, tmp], { runas: user ?? null, cwd, env: { VIRTUAL_ENV: cwd } });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const createArgs = (z: Z) =>
  z.object({
    path: z.string(),
    venv_bin: z.string().nullish(),
    system_site_packages: z.unknown().default(false),
    distribute: z.unknown().default(false),
    clear: z.unknown().default(false),
    python: z.string().nullish(),
    extra_search_dir: z.union([z.string(), z.array(z.string())]).nullish(),
    never_download: z.unknown().optional(),
    prompt: z.string().nullish(),
    pip: z.unknown().default(false),
    symlinks: z.unknown().optional(),
    upgrade: z.unknown().optional(),
    user: z.string().nullish(),
    use_vt: z.unknown().default(false),
    saltenv: z.string().default('base'),
  });

type CreateArgs = ReturnType<ReturnType<typeof createArgs>['parse']>;

/** The command line Salt's `create` runs, after its checks of which options the program takes. */
async function createCommand(ctx: ExecContext, a: CreateArgs, venvBin: string): Promise<string[]> {
  const cmd =
    venvBin === 'venv' ? [which('python3') ?? which('python') ?? 'python3', '-m', 'venv'] : [venvBin];
  const given = (v: unknown): boolean => v !== undefined && v !== null;
  if (!venvBin.includes('venv')) {
    if (given(a.upgrade))
      throw new SALT_ERR_EXEC_COMMAND(
        `The \`upgrade\`(\`--upgrade\`) option is not supported by '${venvBin}'`,
      );
    if (given(a.symlinks))
      throw new SALT_ERR_EXEC_COMMAND(
        `The \`symlinks\`(\`--symlinks\`) option is not supported by '${venvBin}'`,
      );
    const version = await virtualenvVer(ctx, venvBin, a.user);
    if (a.distribute === true && !atLeast(version, [1, 10])) cmd.push('--distribute');
    if (!blank(a.python)) {
      if (!which(String(a.python)))
        throw new SALT_ERR_EXEC_COMMAND(`Cannot find requested python (${a.python}).`);
      cmd.push(`--python=${a.python}`);
    }
    if (given(a.extra_search_dir)) {
      const dirs =
        typeof a.extra_search_dir === 'string'
          ? a.extra_search_dir.trim() === ''
            ? []
            : a.extra_search_dir.split(',').map((e) => e.trim())
          : (a.extra_search_dir as string[]);
      for (const entry of dirs) cmd.push(`--extra-search-dir=${entry}`);
    }
    if (a.never_download === true && !(atLeast(version, [1, 10]) && !atLeast(version, [14, 0, 0])))
      cmd.push('--never-download');
    if (!blank(a.prompt)) cmd.push(`--prompt='${a.prompt}'`);
  } else {
    const refuse = (option: string, flag: string): never => {
      throw new SALT_ERR_EXEC_COMMAND(
        `The \`${option}\`(\`${flag}\`) option is not supported by '${venvBin}'`,
      );
    };
    if (!blank(a.python)) refuse('python', '--python');
    if (given(a.extra_search_dir) && !blank(a.extra_search_dir))
      refuse('extra_search_dir', '--extra-search-dir');
    if (given(a.never_download)) refuse('never_download', '--never-download');
    if (!blank(a.prompt)) refuse('prompt', '--prompt');
    if (a.upgrade === true) cmd.push('--upgrade');
    if (a.symlinks === true) cmd.push('--symlinks');
  }
  if (a.clear === true) cmd.push('--clear');
  if (a.system_site_packages === true) cmd.push('--system-site-packages');
  cmd.push(a.path);
  return cmd;
}

/** `get_resource_path`/`get_resource_content`: one `pkg_resources` call on a package's resource. */
function resourceFunction(call: 'resource_filename' | 'resource_string', summary: string, name: string) {
  return defineFunction({
    args: (z) =>
      z.object({ venv: z.string(), package: z.unknown().optional(), resource: z.unknown().optional() }),
    doc: `${summary}\n\nCLI Example:\n\n    salt '*' virtualenv.${name} /path/to/my/venv my_package my/resource.xml`,
    run: (ctx, a) => {
      verifySafePyCode(a.package, a.resource);
      return venvCode(
        ctx,
        a.venv,
        `import pkg_resources; print(pkg_resources.${call}('${pyStr(a.package)}', '${pyStr(a.resource)}'))`,
      );
    },
  });
}

export default defineModule({
  name: 'virtualenv',
  doc: 'Create virtualenv environments.',
  functions: {
    create: defineFunction({
      args: createArgs,
      varkw: true,
      doc: `Create a virtualenv.

path: the path to the virtualenv to be created.
venv_bin: the name (and optionally path) of the virtualenv command (config or pillar \`venv_bin\`;
  default: virtualenv if installed, else Python's venv).
system_site_packages, clear, symlinks, upgrade: the programs' options of those names.
python, extra_search_dir, never_download, prompt, distribute: virtualenv's options (not venv's).
pip: install pip into the environment if it has none (from get-pip.py).
user: the user to create the environment as.
Other keyword arguments go to cmd.run_all (env, cwd, ...).

CLI Example:

    salt '*' virtualenv.create /path/to/new/virtualenv`,
      async run(ctx, a, extra) {
        const venvBin = a.venv_bin ?? (await defaultVenvBin(ctx));
        const cmd = await createCommand(ctx, a, venvBin);
        const ret = await runAll(ctx, cmd, { ...extra.kwargs, runas: a.user ?? null });
        if (ret.retcode !== 0) return ret;
        const { python, pip, setuptools } = venvPython(a.path);
        if ((a.pip === true || a.distribute === true) && !existsSync(setuptools)) {
          await installScript(
            ctx,
            'https://bootstrap.pypa.io/ez_setup.py',
            a.path,
            python,
            a.user,
            a.saltenv,
          );
        }
        if (a.pip === true && !existsSync(pip)) {
          const got = await installScript(
            ctx,
            'https://bootstrap.pypa.io/get-pip.py',
            a.path,
            python,
            a.user,
            a.saltenv,
          );
          return {
            ...ret,
            retcode: got.retcode,
            stdout: `${ret.stdout}\n${got.stdout}`.trim(),
            stderr: `${ret.stderr}\n${got.stderr}`.trim(),
          };
        }
        return ret;
      },
    }),
    virtualenv_ver: defineFunction({
      args: (z) => z.object({ venv_bin: z.string(), user: z.string().nullish() }),
      varkw: true,
      doc: 'Return the version of the virtualenv program, as a list of numbers.',
      run: (ctx, a) => virtualenvVer(ctx, a.venv_bin, a.user),
    }),
    get_site_packages: defineFunction({
      args: (z) => z.object({ venv: z.string() }),
      doc: `Return the path to the site-packages directory of a virtualenv.

CLI Example:

    salt '*' virtualenv.get_site_packages /path/to/my/venv`,
      run: (ctx, a) => venvCode(ctx, a.venv, 'import sysconfig; print(sysconfig.get_path("purelib"))'),
    }),
    get_distribution_path: defineFunction({
      args: (z) => z.object({ venv: z.string(), distribution: z.unknown() }),
      doc: `Return the path to a distribution installed inside a virtualenv.

CLI Example:

    salt '*' virtualenv.get_distribution_path /path/to/my/venv my_distribution`,
      run: (ctx, a) => {
        verifySafePyCode(a.distribution);
        return venvCode(
          ctx,
          a.venv,
          `import pkg_resources; print(pkg_resources.get_distribution('${pyStr(a.distribution)}').location)`,
        );
      },
    }),
    get_resource_path: resourceFunction(
      'resource_filename',
      'Return the path to a package resource installed inside a virtualenv.',
      'get_resource_path',
    ),
    get_resource_content: resourceFunction(
      'resource_string',
      'Return the content of a package resource installed inside a virtualenv.',
      'get_resource_content',
    ),
  },
});
