/**
 * Salt's `virtualenv` state module (`salt/states/virtualenv_mod.py`): `virtualenv.managed`
 * creates a Python virtual environment (`virtualenv.create`), clears it on request, and installs
 * a requirements file or a list of packages into it with pip, reporting what `pip.freeze` shows
 * changed. `virtualenv.manage` is its other name.
 */
import { existsSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { SaltError } from '../kernel/index.js';
import { venvPython } from '../modules/_venv-paths.js';
import { dottedVersionCmp } from '../modules/_version-cmp.js';
import {
  defineState,
  defineStateModule,
  type StateContext,
  type StateReturn,
} from '../plugins/states/index.js';

type Z = typeof import('zod').z;

const managedArgs = (z: Z) =>
  z.object({
    name: z.string(),
    venv_bin: z.string().nullish(),
    requirements: z.union([z.string(), z.array(z.string())]).nullish(),
    system_site_packages: z.unknown().default(false),
    distribute: z.unknown().default(false),
    use_wheel: z.unknown().default(false),
    clear: z.unknown().default(false),
    python: z.string().nullish(),
    extra_search_dir: z.unknown().optional(),
    never_download: z.unknown().optional(),
    prompt: z.string().nullish(),
    user: z.string().nullish(),
    cwd: z.string().nullish(),
    index_url: z.string().nullish(),
    extra_index_url: z.unknown().optional(),
    pre_releases: z.unknown().default(false),
    no_deps: z.unknown().default(false),
    pip_download: z.unknown().optional(),
    pip_download_cache: z.unknown().optional(),
    pip_exists_action: z.unknown().optional(),
    pip_ignore_installed: z.unknown().default(false),
    proxy: z.unknown().optional(),
    use_vt: z.unknown().default(false),
    env_vars: z.record(z.string(), z.unknown()).nullish(),
    no_use_wheel: z.unknown().default(false),
    pip_upgrade: z.unknown().default(false),
    pip_pkgs: z.unknown().optional(),
    pip_no_cache_dir: z.unknown().default(false),
    pip_cache_dir: z.unknown().optional(),
    process_dependency_links: z.unknown().default(false),
    no_binary: z.unknown().optional(),
  });

type ManagedArgs = ReturnType<ReturnType<typeof managedArgs>['parse']>;

/** Salt's refusal of a wheel option the environment's pip is too old or too new for, or null. */
async function pipVersionRefusal(ctx: StateContext, a: ManagedArgs): Promise<string | null> {
  const checks: [unknown, string, string, string | null][] = [
    [a.use_wheel, 'use_wheel', '1.4', '9.0.3'],
    [a.no_use_wheel, 'no_use_wheel', '1.4', '9.0.3'],
  ];
  for (const [on, option, min, max] of checks) {
    if (on !== true) continue;
    const cur = String(await ctx.call('pip.version', [], { bin_env: a.name }));
    if (dottedVersionCmp(cur, min) < 0 || (max !== null && dottedVersionCmp(cur, max) > 0))
      return `The '${option}' option is only supported in pip between ${min} and ${max}. The version of pip detected was ${cur}.`;
  }
  if (a.no_binary !== undefined && a.no_binary !== null && a.no_binary !== false && a.no_binary !== '') {
    const cur = String(await ctx.call('pip.version', [], { bin_env: a.name }));
    if (dottedVersionCmp(cur, '7.0.0') < 0)
      return `The 'no_binary' option is only supported in pip 7.0.0 and newer. The version of pip detected was ${cur}.`;
  }
  return null;
}

const managed = defineState({
  args: managedArgs,
  varkw: true,
  doc: `Create a virtualenv and optionally manage it with pip.

name: path to the virtualenv. requirements: a pip requirements file (salt:// too); pip_pkgs: a
list of packages instead. clear: recreate the environment. Other keywords go to
virtualenv.create and pip.install.

Example:

    /srv/venv:
      virtualenv.managed:
        - requirements: salt://app/requirements.txt`,
  async run(ctx, a, extra): Promise<StateReturn> {
    const ret: StateReturn = { name: a.name, result: true, comment: '', changes: {} };
    const venvPy = venvPython(a.name).python;
    const venvExists = existsSync(venvPy);
    let requirements = a.requirements ?? null;
    if (typeof requirements === 'string' && requirements.startsWith('salt://')) {
      let cached = (await ctx.call('cp.is_cached', [requirements, ctx.saltenv])) as string | false;
      if (!cached) cached = (await ctx.call('cp.cache_file', [requirements, ctx.saltenv])) as string | false;
      if (
        cached &&
        (await ctx.call('cp.hash_file', [requirements, ctx.saltenv])) !==
          (await ctx.call('cp.hash_file', [cached, ctx.saltenv]))
      )
        cached = (await ctx.call('cp.cache_file', [requirements, ctx.saltenv])) as string | false;
      if (!cached)
        return { ...ret, result: false, comment: `pip requirements file '${requirements}' not found` };
      requirements = cached;
    }
    const clear = a.clear === true;
    if (venvExists && clear) {
      ret.changes.cleared_packages = await ctx.call('pip.freeze', [], { bin_env: a.name });
      ret.changes.old = String(await ctx.call('cmd.run_stderr', [`${venvPy} -V`])).replace(/^\n+|\n+$/g, '');
    }
    if (ctx.test) {
      if (venvExists && clear)
        return { ...ret, result: null, comment: `Virtualenv ${a.name} is set to be cleared` };
      if (venvExists) return { ...ret, comment: `Virtualenv ${a.name} is already created` };
      return { ...ret, result: null, comment: `Virtualenv ${a.name} is set to be created` };
    }
    if (!venvExists || clear) {
      let created: { retcode: number; stdout: string; stderr: string };
      try {
        created = (await ctx.call('virtualenv.create', [a.name], {
          ...extra.kwargs,
          venv_bin: a.venv_bin,
          system_site_packages: a.system_site_packages,
          distribute: a.distribute,
          clear: a.clear,
          python: a.python,
          extra_search_dir: a.extra_search_dir,
          never_download: a.never_download,
          prompt: a.prompt,
          user: a.user,
          use_vt: a.use_vt,
        })) as typeof created;
      } catch (err) {
        if (err instanceof SaltError && err.code === 'SALT_ERR_LOADER_NOT_AVAILABLE')
          return { ...ret, result: false, comment: 'Virtualenv was not detected on this system' };
        throw err;
      }
      if (created.retcode !== 0) return { ...ret, result: false, comment: created.stdout + created.stderr };
      ret.changes.new = String(await ctx.call('cmd.run_stderr', [`${venvPy} -V`])).replace(/^\n+|\n+$/g, '');
      ret.comment = clear ? 'Cleared existing virtualenv' : 'Created new virtualenv';
    } else {
      ret.comment = 'virtualenv exists';
    }
    const refused = await pipVersionRefusal(ctx, a);
    if (refused) return { ...ret, result: false, comment: refused };
    const pipPkgs = a.pip_pkgs;
    if (requirements || (pipPkgs !== undefined && pipPkgs !== null && pipPkgs !== '' && pipPkgs !== false)) {
      let before: Set<string>;
      try {
        before = new Set(
          (await ctx.call('pip.freeze', [], { bin_env: a.name, user: a.user, use_vt: a.use_vt })) as string[],
        );
      } catch (err) {
        return { ...ret, result: false, comment: (err as Error).message };
      }
      let cwd = a.cwd ?? null;
      if (requirements) {
        const canary =
          (typeof requirements === 'string' ? requirements.split(',')[0] : requirements[0]) ?? '';
        if (!isAbsolute(canary) || resolve(canary) !== canary) cwd = dirname(resolve(canary));
      }
      const pipRet = (await ctx.call('pip.install', [], {
        ...extra.kwargs,
        pkgs: pipPkgs,
        requirements,
        process_dependency_links: a.process_dependency_links,
        bin_env: a.name,
        use_wheel: a.use_wheel,
        no_use_wheel: a.no_use_wheel,
        no_binary: a.no_binary,
        user: a.user,
        cwd,
        index_url: a.index_url,
        extra_index_url: a.extra_index_url,
        download: a.pip_download,
        download_cache: a.pip_download_cache,
        pre_releases: a.pre_releases,
        exists_action: a.pip_exists_action,
        ignore_installed: a.pip_ignore_installed,
        upgrade: a.pip_upgrade,
        no_deps: a.no_deps,
        proxy: a.proxy,
        use_vt: a.use_vt,
        env_vars: a.env_vars,
        no_cache_dir: a.pip_no_cache_dir,
        cache_dir: a.pip_cache_dir,
      })) as { retcode: number; stdout: string; stderr: string };
      ret.result = ret.result === true && pipRet.retcode === 0;
      if (pipRet.retcode > 0) ret.comment = `${ret.comment}\n${pipRet.stdout}\n${pipRet.stderr}`;
      const after = new Set((await ctx.call('pip.freeze', [], { bin_env: a.name })) as string[]);
      const added = [...after].filter((p) => !before.has(p));
      const gone = [...before].filter((p) => !after.has(p));
      if (added.length || gone.length)
        ret.changes.packages = { new: added.length ? added : '', old: gone.length ? gone : '' };
    }
    return ret;
  },
});

export default defineStateModule({
  name: 'virtualenv',
  doc: 'Setup of Python virtualenv sandboxes.',
  functions: { managed, manage: managed },
});
