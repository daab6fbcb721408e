/**
 * Salt's `freezer` execution module (`salt/modules/freezer.py`): the installed packages and
 * configured repositories saved under a name (`<cachedir>/freezer/<name>-pkgs.yml` and
 * `-reps.yml`, JSON as Python's `json.dump` writes it), compared between two names, and restored:
 * missing repositories and packages added, extra ones removed, each failure a comment.
 */
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { defineFunction, defineModule, type ExecContext, SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import { pyJson } from '../plugins/renderers/index.js';
import { pyFlag } from './_coerce.js';
import { cleanKwargs } from './_invalid-kwargs.js';
import { pyEquals } from './_traverse.js';

type Dict = Record<string, unknown>;
const isDict = (v: unknown): v is Dict => typeof v === 'object' && v !== null && !Array.isArray(v);

const storeDir = (ctx: ExecContext) => join(String(ctx.opts.cachedir ?? '/var/cache/salt/minion'), 'freezer');

function paths(ctx: ExecContext, name: string | null | undefined): [string, string] {
  const base = join(storeDir(ctx), name || 'freezer');
  return [`${base}-pkgs.yml`, `${base}-reps.yml`];
}

const isFile = (p: string) => existsSync(p) && statSync(p).isFile();
const frozen = (ctx: ExecContext, name: string | null | undefined) => paths(ctx, name).every(isFile);

/** Salt's `salt.utils.dictdiffer.deep_diff`: what differs, key by key, into nested mappings. */
export function deepDiff(oldValue: Dict, newValue: Dict): { old?: Dict; new?: Dict } {
  const old = structuredClone(oldValue);
  const neu = structuredClone(newValue);
  const prune = (a: Dict, b: Dict): void => {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      if (key in a && key in b && pyEquals(a[key], b[key])) {
        delete a[key];
        delete b[key];
        continue;
      }
      const sa = a[key];
      const sb = b[key];
      if (isDict(sa) && isDict(sb)) {
        prune(sa, sb);
        if (pyEquals(sa, sb)) {
          delete a[key];
          delete b[key];
        }
      }
    }
  };
  prune(old, neu);
  return { ...(Object.keys(old).length ? { old } : {}), ...(Object.keys(neu).length ? { new: neu } : {}) };
}

const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Dict;
const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

interface RestoreReport {
  pkgs: { add: string[]; remove: string[] };
  repos: { add: string[]; remove: string[] };
  comment: string[];
}

async function restore(ctx: ExecContext, name: string | null | undefined, clean: boolean, kw: Dict) {
  if (!frozen(ctx, name)) throw new SALT_ERR_EXEC_COMMAND('Frozen state not found.');
  const [pkgFile, repoFile] = paths(ctx, name);
  const pkgs = readJson(pkgFile);
  const repos = readJson(repoFile);
  const ret: RestoreReport = { pkgs: { add: [], remove: [] }, repos: { add: [], remove: [] }, comment: [] };
  const current = async (fun: string) => Object.keys((await ctx.call(fun, [], kw)) as Dict);
  const each = async (
    names: string[],
    work: (n: string) => Promise<unknown>,
    done: string[],
    failure: string,
  ) => {
    for (const n of names) {
      try {
        await work(n);
        done.push(n);
      } catch (err) {
        ctx.log.error({ err }, `${failure} ${n}`);
        ret.comment.push(`${failure.replace('%s', n)}: ${message(err)}`);
      }
    }
  };
  // Salt's order: missing repositories, missing packages, extra packages, extra repositories
  const haveRepos = await current('pkg.list_repos');
  await each(
    Object.keys(repos).filter((r) => !haveRepos.includes(r)),
    (r) => ctx.call('pkg.mod_repo', [r], { ...(isDict(repos[r]) ? repos[r] : {}), ...kw }),
    ret.repos.add,
    'Error adding %s repository',
  );
  const havePkgs = await current('pkg.list_pkgs');
  await each(
    Object.keys(pkgs).filter((p) => !havePkgs.includes(p)),
    (p) => ctx.call('pkg.install', [], { name: p, ...kw }),
    ret.pkgs.add,
    'Error adding %s package',
  );
  const nowPkgs = await current('pkg.list_pkgs');
  await each(
    nowPkgs.filter((p) => !(p in pkgs)),
    (p) => ctx.call('pkg.remove', [], { name: p, ...kw }),
    ret.pkgs.remove,
    'Error removing %s package',
  );
  const nowRepos = await current('pkg.list_repos');
  await each(
    nowRepos.filter((r) => !(r in repos)),
    (r) => ctx.call('pkg.del_repo', [r], kw),
    ret.repos.remove,
    'Error removing %s repository',
  );
  if (clean && ret.comment.length === 0) for (const f of paths(ctx, name)) unlinkSync(f);
  return ret;
}

export default defineModule({
  name: 'freezer',
  doc: 'Saves the installed packages and repositories under a name, compares two such saves, and restores one.',
  functions: {
    status: defineFunction({
      args: (z) => z.object({ name: z.string().nullish() }),
      doc: `True when a frozen state called \`name\` (default \`freezer\`) exists.

CLI Example:

    salt '*' freezer.status`,
      run: (ctx, a) => frozen(ctx, a.name),
    }),
    list: defineFunction({
      pyName: 'list_',
      args: (z) => z.object({}),
      doc: `The names of the frozen states, sorted.

CLI Example:

    salt '*' freezer.list`,
      run: (ctx) => {
        const dir = storeDir(ctx);
        if (!existsSync(dir) || !statSync(dir).isDirectory()) return [];
        const names = readdirSync(dir)
          .filter((f) => f.endsWith('-pkgs.yml') || f.endsWith('-reps.yml'))
          .map((f) => f.slice(0, -9));
        return [...new Set(names)].sort();
      },
    }),
    freeze: defineFunction({
      args: (z) => z.object({ name: z.string().nullish(), force: pyFlag(z, false) }),
      varkw: true,
      doc: `Saves the installed packages (pkg.list_pkgs) and repositories (pkg.list_repos) as the
frozen state \`name\` (default \`freezer\`); an existing one only with \`force\`.

CLI Example:

    salt '*' freezer.freeze pre_install`,
      run: async (ctx, a, extra) => {
        const dir = storeDir(ctx);
        try {
          mkdirSync(dir, { recursive: true });
        } catch (err) {
          throw new SALT_ERR_EXEC_COMMAND(
            `Error when trying to create the freezer storage ${dir}: ${message(err)}`,
          );
        }
        if (frozen(ctx, a.name) && !a.force) {
          throw new SALT_ERR_EXEC_COMMAND('The state is already present. Use force parameter to overwrite.');
        }
        const kw = cleanKwargs(extra.kwargs);
        const pkgs = await ctx.call('pkg.list_pkgs', [], kw);
        const repos = await ctx.call('pkg.list_repos', [], kw);
        const [pkgFile, repoFile] = paths(ctx, a.name);
        writeFileSync(pkgFile, pyJson(pkgs));
        writeFileSync(repoFile, pyJson(repos));
        return true;
      },
    }),
    restore: defineFunction({
      args: (z) => z.object({ name: z.string().nullish(), clean: pyFlag(z, false) }),
      varkw: true,
      doc: `Makes the system hold the packages and repositories of the frozen state \`name\`: missing
repositories and packages are added, extra ones removed; \`clean\` removes the frozen state
after a restore without errors.

CLI Example:

    salt '*' freezer.restore`,
      run: (ctx, a, extra) => restore(ctx, a.name, a.clean, cleanKwargs(extra.kwargs)),
    }),
    compare: defineFunction({
      args: (z) => z.object({ old: z.string(), new: z.string() }),
      doc: `What differs between the frozen states \`old\` and \`new\`: packages and repositories.

CLI Example:

    salt '*' freezer.compare pre_install post_install`,
      run: (ctx, a) => {
        if (!(frozen(ctx, a.old) && frozen(ctx, a.new)))
          throw new SALT_ERR_EXEC_COMMAND('Frozen state not found.');
        const [oldPkgs, oldRepos] = paths(ctx, a.old);
        const [newPkgs, newRepos] = paths(ctx, a.new);
        return {
          pkgs: deepDiff(readJson(oldPkgs), readJson(newPkgs)),
          repos: deepDiff(readJson(oldRepos), readJson(newRepos)),
        };
      },
    }),
  },
});
