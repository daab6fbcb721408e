/**
 * Salt's `npm` execution module (`salt/modules/npm.py`): install, uninstall and list Node
 * packages, globally or in a project folder (`dir`), and the npm cache. Salt joins the command
 * into a shell line (quoting the names); tsalt passes argv, so no name reaches a shell.
 */
import os from 'node:os';
import {
  defineFunction,
  defineModule,
  type ExecContext,
  SALT_ERR_EXEC_COMMAND,
  SALT_ERR_INVOCATION,
} from '../kernel/index.js';
import { which } from './_which.js';

type RunAll = { retcode: number; stdout: string; stderr: string };
type Z = typeof import('zod').z;

const common = (z: Z) => ({ runas: z.string().nullish(), env: z.record(z.string(), z.unknown()).nullish() });

async function npm(
  ctx: ExecContext,
  args: string[],
  a: { runas?: string | null; env?: Record<string, unknown> | null },
  cwd: string | null | undefined,
): Promise<RunAll> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(a.env ?? {})) env[k] = String(v);
  const kw: Record<string, unknown> = {
    python_shell: false,
    ignore_retcode: true,
    runas: a.runas ?? null,
    env,
  };
  if (cwd) kw.cwd = cwd;
  return (await ctx.call('cmd.run_all', [['npm', ...args]], kw)) as RunAll;
}

/** Salt's `find_json`: the JSON document in npm's output, skipping lines before it; the text when there is none. */
export function findJson(text: string): unknown {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const first = (lines[i] as string).trimStart();
    if (!first.startsWith('{') && !first.startsWith('[')) continue;
    try {
      return JSON.parse(lines.slice(i).join('\n'));
    } catch {
      // not JSON from here: try the next line
    }
  }
  return text;
}

export default defineModule({
  name: 'npm',
  doc: 'Manage and query NPM packages.',
  virtual: () =>
    which('npm')
      ? true
      : {
          ok: false,
          reason: 'npm execution module could not be loaded because the npm binary could not be located',
        },
  functions: {
    install: defineFunction({
      args: (z) =>
        z.object({
          pkg: z.string().nullish(),
          pkgs: z.array(z.union([z.string(), z.number()]).transform(String)).nullish(),
          dir: z.string().nullish(),
          runas: z.string().nullish(),
          registry: z.string().nullish(),
          env: z.record(z.string(), z.unknown()).nullish(),
          dry_run: z.boolean().default(false),
          silent: z.boolean().default(true),
        }),
      doc: "Install an NPM package (pkg, or the list pkgs) into dir, or globally when there is no dir; with no package, the dependencies of dir's package.json. Returns npm's JSON report.\n\nCLI Example: salt '*' npm.install coffee-script dir=/path/to/project",
      run: async (ctx, a) => {
        const pkgs = a.pkg ? [a.pkg] : (a.pkgs ?? []);
        const cmd = ['install', '--json'];
        if (a.silent) cmd.push('--silent');
        if (!a.dir) cmd.push('--global');
        if (a.registry) cmd.push(`--registry=${a.registry}`);
        if (a.dry_run) cmd.push('--dry-run');
        cmd.push(...pkgs);
        const r = await npm(ctx, cmd, a, a.dir || os.tmpdir());
        // with --silent, npm prints its error report on stdout and nothing on stderr
        if (r.retcode !== 0) throw new SALT_ERR_EXEC_COMMAND(r.stderr || r.stdout);
        return findJson(r.stdout || r.stderr);
      },
    }),
    uninstall: defineFunction({
      args: (z) => z.object({ pkg: z.string(), dir: z.string().nullish(), ...common(z) }),
      doc: "Uninstall an NPM package from dir, or globally when there is no dir. True, or False when npm fails.\n\nCLI Example: salt '*' npm.uninstall coffee-script dir=/path/to/project",
      run: async (ctx, a) => {
        const r = await npm(ctx, ['uninstall', a.pkg, ...(a.dir ? [] : ['--global'])], a, a.dir);
        if (r.retcode !== 0) {
          ctx.log.error(r.stderr);
          return false;
        }
        return true;
      },
    }),
    list: defineFunction({
      pyName: 'list_',
      args: (z) =>
        z.object({
          pkg: z.string().nullish(),
          dir: z.string().nullish(),
          ...common(z),
          depth: z.unknown().optional(),
        }),
      doc: "List installed NPM packages of dir (globally installed ones when there is no dir), or the one named pkg: npm list's dependencies.\n\nCLI Example: salt '*' npm.list dir=/path/to/project",
      run: async (ctx, a) => {
        const cmd = ['list', '--json', '--silent'];
        if (!a.dir) cmd.push('--global');
        if (a.depth !== undefined && a.depth !== null) {
          if (typeof a.depth !== 'number')
            throw new SALT_ERR_INVOCATION(`Error: depth ${String(a.depth)} must be a number`);
          cmd.push(`--depth=${Math.trunc(a.depth)}`);
        }
        if (a.pkg) cmd.push(a.pkg);
        const r = await npm(ctx, cmd, a, a.dir);
        if (r.retcode !== 0 && r.stderr) throw new SALT_ERR_EXEC_COMMAND(r.stderr);
        let out: { dependencies?: unknown };
        try {
          out = JSON.parse(r.stdout) as { dependencies?: unknown };
        } catch {
          throw new SALT_ERR_EXEC_COMMAND(`npm list printed no JSON: ${r.stdout.slice(0, 200)}`);
        }
        return out.dependencies ?? {};
      },
    }),
    cache_clean: defineFunction({
      args: (z) => z.object({ path: z.string().nullish(), ...common(z), force: z.boolean().default(false) }),
      doc: "Clean cached NPM packages (the whole cache, or path). True, or False when npm fails.\n\nCLI Example: salt '*' npm.cache_clean force=True",
      run: async (ctx, a) => {
        const r = await npm(
          ctx,
          ['cache', 'clean', ...(a.path ? [a.path] : []), ...(a.force ? ['--force'] : [])],
          a,
          null,
        );
        if (r.retcode !== 0) {
          ctx.log.error(r.stderr);
          return false;
        }
        return true;
      },
    }),
    cache_list: defineFunction({
      args: (z) => z.object({ path: z.string().nullish(), ...common(z) }),
      doc: "List NPM cached packages (all, or those under path).\n\nCLI Example: salt '*' npm.cache_list",
      run: async (ctx, a) => {
        const r = await npm(ctx, ['cache', 'ls', ...(a.path ? [a.path] : [])], a, null);
        if (r.retcode !== 0 && r.stderr) throw new SALT_ERR_EXEC_COMMAND(r.stderr);
        return r.stdout;
      },
    }),
    cache_path: defineFunction({
      args: (z) => z.object(common(z)),
      doc: "List path of the NPM cache directory.\n\nCLI Example: salt '*' npm.cache_path",
      run: async (ctx, a) => {
        const r = await npm(ctx, ['config', 'get', 'cache'], a, null);
        return r.stdout || r.stderr;
      },
    }),
  },
});
