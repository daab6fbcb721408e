/**
 * Salt's `npm` state module (`salt/states/npm.py`): `npm.installed` installs Node packages
 * (by name, `name@version`, or a list in `pkgs`) globally or into `dir` unless `npm list`
 * shows them; `npm.removed` uninstalls one; `npm.bootstrap` installs a folder's dependencies
 * (`_npm-bootstrap.ts`). Through the `npm` execution module.
 */
import { defineState, defineStateModule, type StateReturn } from '../plugins/states/index.js';
import { bootstrap } from './_npm-bootstrap.js';

type Listed = Record<string, { version?: string; from?: string }>;

/** Salt's `_pkg_is_installed`: by name with a version, or a URI that an installed package came from. */
function isInstalled(pkgName: string, installed: Listed): boolean {
  if (installed[pkgName] && 'version' in (installed[pkgName] as object)) return true;
  if (!pkgName.includes('://')) return false;
  for (const details of Object.values(installed)) {
    let from = String(details.from ?? '').split('://')[1];
    if (from === undefined) continue;
    if (!from.endsWith('.git') && pkgName.startsWith('git://')) from += '.git';
    if (pkgName.split('://')[1] === from) return true;
  }
  return false;
}

const installed = defineState({
  args: (z) =>
    z.object({
      name: z.string(),
      pkgs: z.array(z.union([z.string(), z.number()]).transform(String)).nullish(),
      dir: z.string().nullish(),
      user: z.string().nullish(),
      force_reinstall: z.boolean().default(false),
      registry: z.string().nullish(),
      env: z.record(z.string(), z.unknown()).nullish(),
    }),
  doc: 'Verify that the given package (or the list pkgs) is installed, globally or in dir.',
  async run(ctx, a): Promise<StateReturn> {
    const ret: StateReturn = { name: a.name, result: null, comment: '', changes: {} };
    const list = a.pkgs && a.pkgs.length > 0 ? a.pkgs : [a.name];
    let have: Listed;
    try {
      have = (await ctx.call('npm.list', [], { dir: a.dir, runas: a.user, env: a.env, depth: 0 })) as Listed;
    } catch (err) {
      return { ...ret, result: false, comment: `Error looking up '${a.name}': ${(err as Error).message}` };
    }
    const satisfied: string[] = [];
    const toInstall: string[] = [];
    for (const pkg of list) {
      const m = /^(@?[^@\s]+)(?:@(\S+))?/.exec(pkg);
      const name = m?.[1] ?? pkg;
      const ver = m?.[2];
      if (a.force_reinstall || !isInstalled(name, have)) {
        toInstall.push(pkg);
        continue;
      }
      const got = have[name]?.version;
      if (ver && got !== ver) toInstall.push(pkg);
      else satisfied.push(`${name}@${got}`);
    }
    const satisfiedText = `Package(s) '${list.join(', ')}' satisfied by ${satisfied.join(', ')}`;
    if (ctx.test) {
      const msg: string[] = [];
      if (toInstall.length > 0) {
        msg.push(`NPM package(s) '${toInstall.join(', ')}' are set to be installed`);
        ret.changes = { old: [], new: toInstall };
      }
      if (satisfied.length > 0) {
        msg.push(satisfiedText);
        ret.result = true;
      }
      ret.comment = msg.join('. ');
      return ret;
    }
    if (toInstall.length === 0) return { ...ret, result: true, comment: satisfiedText };
    try {
      await ctx.call('npm.install', [], {
        dir: a.dir,
        runas: a.user,
        registry: a.registry,
        env: a.env,
        pkgs: list,
      });
    } catch (err) {
      return {
        ...ret,
        result: false,
        comment: `Error installing '${list.join(', ')}': ${(err as Error).message}`,
      };
    }
    return {
      ...ret,
      result: true,
      changes: { old: [], new: toInstall },
      comment: `Package(s) '${toInstall.join(', ')}' successfully installed`,
    };
  },
});

const removed = defineState({
  args: (z) => z.object({ name: z.string(), dir: z.string().nullish(), user: z.string().nullish() }),
  doc: 'Verify that the given package is not installed, globally or in dir.',
  async run(ctx, a): Promise<StateReturn> {
    const ret: StateReturn = { name: a.name, result: null, comment: '', changes: {} };
    let have: Listed;
    try {
      have = (await ctx.call('npm.list', [], { dir: a.dir, depth: 0 })) as Listed;
    } catch (err) {
      return { ...ret, result: false, comment: `Error uninstalling '${a.name}': ${(err as Error).message}` };
    }
    if (!(a.name in have)) return { ...ret, result: true, comment: `Package '${a.name}' is not installed` };
    if (ctx.test) return { ...ret, result: null, comment: `Package '${a.name}' is set to be removed` };
    if (await ctx.call('npm.uninstall', [], { pkg: a.name, dir: a.dir, runas: a.user }))
      return {
        ...ret,
        result: true,
        changes: { [a.name]: 'Removed' },
        comment: `Package '${a.name}' was successfully removed`,
      };
    return { ...ret, result: false, comment: `Error removing package '${a.name}'` };
  },
});

/** `x in listed` as Python reads it: a substring of npm's text, or an item of a list. */
const listedHas = (listed: unknown, x: string): boolean =>
  Array.isArray(listed) ? listed.includes(x) : String(listed).includes(x);

const cacheCleaned = defineState({
  args: (z) =>
    z.object({ name: z.string().nullish(), user: z.string().nullish(), force: z.boolean().default(false) }),
  doc: "Ensure that the given package is not in npm's cache; without a name, that the whole cache is cleared.",
  async run(ctx, a): Promise<StateReturn> {
    const name = a.name ?? null;
    const what = name || 'packages';
    const ret: StateReturn = { name: name as string, result: null, comment: '', changes: {} };
    let cached: unknown;
    try {
      cached = await ctx.call('npm.cache_list', [], { path: name, runas: a.user });
    } catch (err) {
      return { ...ret, result: false, comment: `Error looking up cached ${what}: ${(err as Error).message}` };
    }
    if (name) {
      // Salt takes the first item of the full listing as the cache's root: of npm's text, its first character
      const all = await ctx.call('npm.cache_list', [], { path: null, runas: a.user });
      const root = Array.isArray(all) ? String(all[0]) : String(all).slice(0, 1);
      if (!listedHas(cached, `${root}/${name}/`))
        return { ...ret, result: true, comment: `Package ${name} is not in the cache` };
    }
    if (ctx.test) return { ...ret, result: null, comment: `Cached ${what} set to be removed` };
    if (await ctx.call('npm.cache_clean', [], { path: name, runas: a.user }))
      return {
        ...ret,
        result: true,
        changes: { [name || 'cache']: 'Removed' },
        comment: `Cached ${what} successfully removed`,
      };
    return { ...ret, result: false, comment: `Error cleaning cached ${what}` };
  },
});

export default defineStateModule({
  name: 'npm',
  doc: 'Installation of NPM Packages (npm.installed, npm.removed, npm.bootstrap, npm.cache_cleaned).',
  functions: { installed, removed, bootstrap, cache_cleaned: cacheCleaned },
});
