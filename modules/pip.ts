/**
 * Salt's `pip` execution module (`salt/modules/pip.py`) through the pip program: install and
 * uninstall packages (from indexes, `find_links` folders, requirements files, `salt://`
 * included), and list, freeze and version what an environment has. `bin_env` picks the
 * environment (`_pip-bin.ts`); the install command line is `_pip-install-args.ts`.
 */
import { defineFunction, defineModule, type ExecContext, SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import { pyFlag } from './_coerce.js';
import { cleanKwargs } from './_invalid-kwargs.js';
import { pep440Cmp } from './_pep440.js';
import { forgetVersion, listArg, type PipCall, pipVersion, type RunAll, runPip } from './_pip-bin.js';
import { installArgs, proxyArgs, timeoutArgs } from './_pip-install-args.js';
import { pipUpgrade } from './_pip-upgrade.js';
import { dottedVersionCmp } from './_version-cmp.js';

type Z = typeof import('zod').z;
const callArgs = (z: Z) => ({
  bin_env: z.string().nullish(),
  user: z.string().nullish(),
  cwd: z.string().nullish(),
});
const envVars = (z: Z) => ({ env_vars: z.record(z.string(), z.unknown()).nullish() });

/** Python's LooseVersion-ish `a < b` for dotted pip versions. */
const older = (a: string | null, b: string): boolean => dottedVersionCmp(a ?? '0', b) < 0;

/** `--requirement` arguments, `salt://` files cached first; or Salt's not-found return. */
async function requirementArgs(
  ctx: ExecContext,
  requirements: unknown,
  saltenv: string,
): Promise<{ args: string[]; error?: Record<string, unknown> }> {
  const args: string[] = [];
  for (const req of listArg(requirements)) {
    let file: string | false = req;
    if (req.startsWith('salt://')) file = (await ctx.call('cp.cache_file', [req, saltenv])) as string | false;
    if (!file) return { args, error: { result: false, comment: `pip requirements file '${req}' not found` } };
    args.push('--requirement', file);
  }
  return { args };
}

function checked(r: RunAll): RunAll {
  if (r.retcode) throw new SALT_ERR_EXEC_COMMAND(r.stderr);
  return r;
}

async function freeze(ctx: ExecContext, a: PipCall): Promise<string[]> {
  const all = older(await pipVersion(ctx, a), '8.0.3') ? [] : ['--all'];
  return checked(await runPip(ctx, ['freeze', ...all], a))
    .stdout.split('\n')
    .filter((l) => l !== '');
}

/** Salt's `list_freeze_parse`: `{name: version}` from `pip freeze`, pip itself first. */
async function freezeParse(
  ctx: ExecContext,
  prefix: string | null,
  a: PipCall,
): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  if (prefix === null || 'pip'.startsWith(prefix)) out.pip = (await pipVersion(ctx, a)) ?? '';
  for (const raw of await freeze(ctx, a)) {
    if (raw.startsWith('-f') || raw.startsWith('#') || raw.startsWith('-e hg+not trust')) continue;
    const line = raw.startsWith('-e') ? (raw.split('-e ')[1] ?? '') : raw;
    let name: string;
    let version: string;
    if (raw.startsWith('-e') && line.includes('#egg='))
      [version, name] = line.split('#egg=') as [string, string];
    else {
      const sep = line.includes('===') ? '===' : line.includes('==') ? '==' : null;
      if (sep === null) {
        ctx.log.error(`Can't parse line '${line}'`);
        continue;
      }
      [name, version] = line.split(sep) as [string, string];
    }
    if (!prefix || name.toLowerCase().startsWith(prefix.toLowerCase())) out[name] = version;
  }
  return out;
}

async function list(ctx: ExecContext, prefix: string | null, a: PipCall): Promise<Record<string, string>> {
  if (older(await pipVersion(ctx, a), '9.0')) return freezeParse(ctx, prefix, a);
  const r = checked(await runPip(ctx, ['list', '--format=json'], a));
  let pkgs: { name: string; version: string }[];
  try {
    pkgs = JSON.parse(r.stdout);
  } catch {
    throw new SALT_ERR_EXEC_COMMAND('Invalid JSON');
  }
  const out: Record<string, string> = {};
  for (const p of pkgs)
    if (!prefix || p.name.toLowerCase().startsWith(prefix.toLowerCase())) out[p.name] = p.version;
  return out;
}

async function listUpgrades(ctx: ExecContext, a: PipCall): Promise<Record<string, string>> {
  const r = checked(await runPip(ctx, ['list', '--outdated', '--format=json'], a));
  let pkgs: { name: string; latest_version: string; latest_filetype: string }[];
  try {
    pkgs = JSON.parse(r.stdout);
  } catch {
    throw new SALT_ERR_EXEC_COMMAND('Invalid JSON');
  }
  return Object.fromEntries(pkgs.map((p) => [p.name, `${p.latest_version} [${p.latest_filetype}]`]));
}

/** Salt's `pip.list_all_versions`: the versions the index offers, oldest first; null when none. */
async function listAllVersions(
  ctx: ExecContext,
  a: PipCall & {
    pkg: string;
    include_alpha: boolean;
    include_beta: boolean;
    include_rc: boolean;
    index_url?: string | null;
    extra_index_url?: string | null;
  },
): Promise<string[] | null> {
  const modern = !older(await pipVersion(ctx, a), '21.2');
  const args = modern ? ['index', 'versions', a.pkg] : ['install', `${a.pkg}==versions`];
  for (const [flag, url] of [
    ['--index-url', a.index_url],
    ['--extra-index-url', a.extra_index_url],
  ] as const) {
    if (!url) continue;
    if (!/^(https?|file):\/\/./.test(url)) throw new SALT_ERR_EXEC_COMMAND(`'${url}' is not a valid URL`);
    args.push(flag, url);
  }
  const r = await runPip(ctx, args, a, { redirect_stderr: true, output_loglevel: 'quiet' });
  const found = modern
    ? /\s*Available versions: (.*)/
    : /\s*Could not find a version.* \(from versions: (.*)\)/;
  const skip = [a.include_alpha ? '' : 'a', a.include_beta ? '' : 'b', a.include_rc ? '' : 'rc'].filter(
    Boolean,
  );
  for (const line of r.stdout.split('\n')) {
    const m = found.exec(line);
    if (!m) continue;
    const versions = (m[1] as string).split(', ').filter((v) => v && !skip.some((x) => v.includes(x)));
    versions.sort((x, y) => pep440Cmp(x, y) ?? 0);
    return versions.length > 0 ? versions : null;
  }
  return null;
}

const prefixArg = (z: Z) =>
  z
    .union([z.string(), z.number()])
    .nullish()
    .transform((v) => (v == null ? null : String(v)));

export default defineModule({
  name: 'pip',
  doc: 'Install Python packages with pip.',
  functions: {
    install: defineFunction({
      args: (z) =>
        z.object({
          pkgs: z.unknown().optional(),
          requirements: z.unknown().optional(),
          bin_env: z.string().nullish(),
          use_wheel: z.boolean().default(false),
          no_use_wheel: z.boolean().default(false),
          log: z.string().nullish(),
          proxy: z.unknown().optional(),
          timeout: z.unknown().optional(),
          editable: z.unknown().optional(),
          find_links: z.unknown().optional(),
          index_url: z.string().nullish(),
          extra_index_url: z.string().nullish(),
          no_index: z.boolean().default(false),
          mirrors: z.unknown().optional(),
          build: z.string().nullish(),
          target: z.string().nullish(),
          download: z.string().nullish(),
          download_cache: z.string().nullish(),
          source: z.string().nullish(),
          upgrade: z.boolean().default(false),
          force_reinstall: z.boolean().default(false),
          ignore_installed: z.boolean().default(false),
          exists_action: z.string().nullish(),
          no_deps: z.boolean().default(false),
          no_install: z.boolean().default(false),
          no_download: z.boolean().default(false),
          global_options: z.unknown().optional(),
          install_options: z.unknown().optional(),
          user: z.string().nullish(),
          cwd: z.string().nullish(),
          pre_releases: z.boolean().default(false),
          cert: z.string().nullish(),
          allow_all_external: z.boolean().default(false),
          allow_external: z.unknown().optional(),
          allow_unverified: z.unknown().optional(),
          process_dependency_links: z.boolean().default(false),
          saltenv: z.string().default('base'),
          ...envVars(z),
          use_vt: z.boolean().default(false),
          trusted_host: z.string().nullish(),
          no_cache_dir: z.boolean().default(false),
          extra_args: z.unknown().optional(),
          cache_dir: z.string().nullish(),
          no_binary: z.unknown().optional(),
          disable_version_check: z.boolean().default(false),
        }),
      varkw: true,
      doc: "Install packages with pip, individually (pkgs, comma separated) or from requirements files, globally or into the virtualenv bin_env. Returns pip's cmd.run_all result.\n\nCLI Example: salt '*' pip.install pkgs=<package name>,<package2 name> bin_env=/path/to/venv find_links=/srv/wheels no_index=True",
      run: async (ctx, a) => {
        const req = await requirementArgs(ctx, a.requirements, a.saltenv);
        if (req.error) return req.error;
        const args = installArgs(ctx, a, req.args);
        if (args === null) return { retcode: 0, stdout: 'No packages to install.' };
        try {
          return await runPip(ctx, ['install', ...args], a, { saltenv: a.saltenv });
        } finally {
          forgetVersion(ctx, a.bin_env);
        }
      },
    }),
    uninstall: defineFunction({
      args: (z) =>
        z.object({
          pkgs: z.unknown().optional(),
          requirements: z.unknown().optional(),
          bin_env: z.string().nullish(),
          log: z.string().nullish(),
          proxy: z.unknown().optional(),
          timeout: z.unknown().optional(),
          user: z.string().nullish(),
          cwd: z.string().nullish(),
          saltenv: z.string().default('base'),
          use_vt: z.boolean().default(false),
        }),
      doc: "Uninstall packages individually (pkgs, comma separated) or from requirements files. Returns pip's cmd.run_all result.\n\nCLI Example: salt '*' pip.uninstall pkgs=<package name> bin_env=/path/to/venv",
      run: async (ctx, a) => {
        const req = await requirementArgs(ctx, a.requirements, a.saltenv);
        if (req.error) return req.error;
        const cmd = ['uninstall', '-y', ...req.args];
        if (a.log) cmd.push('--log', a.log);
        cmd.push(...proxyArgs(ctx, a.proxy), ...timeoutArgs(a.timeout), ...listArg(a.pkgs));
        try {
          return await runPip(ctx, cmd, a, { saltenv: a.saltenv });
        } finally {
          forgetVersion(ctx, a.bin_env);
        }
      },
    }),
    freeze: defineFunction({
      args: (z) => z.object({ ...callArgs(z), use_vt: pyFlag(z, false), ...envVars(z) }),
      varkw: true,
      doc: "Return a list of installed packages (pip freeze --all) either globally or in the virtualenv bin_env.\n\nCLI Example: salt '*' pip.freeze bin_env=/home/code/path/to/virtualenv",
      run: (ctx, a, extra) =>
        freeze(ctx, { ...a, cmd_kwargs: { use_vt: a.use_vt, ...cleanKwargs(extra.kwargs) } }),
    }),
    list_freeze_parse: defineFunction({
      args: (z) => z.object({ prefix: prefixArg(z), ...callArgs(z), ...envVars(z) }),
      varkw: true,
      doc: "Filter the output of pip.freeze by prefix into {name: version}, pip itself included.\n\nCLI Example: salt '*' pip.list_freeze_parse salt",
      run: (ctx, a, extra) => freezeParse(ctx, a.prefix, { ...a, cmd_kwargs: cleanKwargs(extra.kwargs) }),
    }),
    list: defineFunction({
      pyName: 'list_',
      args: (z) => z.object({ prefix: prefixArg(z), ...callArgs(z), ...envVars(z) }),
      varkw: true,
      doc: "Installed packages as {name: version} (pip list --format=json), those whose name starts with prefix when given.\n\nCLI Example: salt '*' pip.list salt",
      run: (ctx, a, extra) => list(ctx, a.prefix, { ...a, cmd_kwargs: cleanKwargs(extra.kwargs) }),
    }),
    version: defineFunction({
      args: (z) =>
        z.object({ bin_env: z.string().nullish(), cwd: z.string().nullish(), user: z.string().nullish() }),
      doc: "Returns the version of pip (in the virtualenv bin_env when given); None when it cannot be read.\n\nCLI Example: salt '*' pip.version bin_env=/path/to/venv",
      run: (ctx, a) => pipVersion(ctx, a),
    }),
    list_upgrades: defineFunction({
      args: (z) => z.object(callArgs(z)),
      doc: "Check whether or not an upgrade is available for all packages: {name: 'version [filetype]'}.\n\nCLI Example: salt '*' pip.list_upgrades",
      run: (ctx, a) => listUpgrades(ctx, a),
    }),
    is_installed: defineFunction({
      args: (z) => z.object({ pkgname: z.union([z.string(), z.number()]).transform(String), ...callArgs(z) }),
      doc: "Whether pkgname is installed (its name compared without case).\n\nCLI Example: salt '*' pip.is_installed salt",
      run: async (ctx, a) =>
        Object.keys(await list(ctx, a.pkgname, a)).some((p) => p.toLowerCase() === a.pkgname.toLowerCase()),
    }),
    list_all_versions: defineFunction({
      args: (z) =>
        z.object({
          pkg: z.union([z.string(), z.number()]).transform(String),
          bin_env: z.string().nullish(),
          include_alpha: z.boolean().default(false),
          include_beta: z.boolean().default(false),
          include_rc: z.boolean().default(false),
          user: z.string().nullish(),
          cwd: z.string().nullish(),
          index_url: z.string().nullish(),
          extra_index_url: z.string().nullish(),
        }),
      doc: "List all available versions of a package from the index (pip index versions), oldest first; None when there are none.\n\nCLI Example: salt '*' pip.list_all_versions <package name>",
      run: (ctx, a) => listAllVersions(ctx, a),
    }),
    upgrade: defineFunction({
      args: (z) => z.object({ ...callArgs(z), use_vt: z.boolean().default(false) }),
      doc: "Upgrades every outdated package (pip install -U each one pip.list_upgrades names): {changes, result, comment}.\n\nCLI Example: salt '*' pip.upgrade",
      run: (ctx, a) => pipUpgrade(ctx, a),
    }),
    upgrade_available: defineFunction({
      args: (z) => z.object({ pkg: z.string(), ...callArgs(z) }),
      doc: "Check whether or not an upgrade is available for a given package\n\nCLI Example: salt '*' pip.upgrade_available <package name>",
      run: async (ctx, a) => a.pkg in (await listUpgrades(ctx, a)),
    }),
  },
});
