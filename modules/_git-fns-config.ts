/**
 * The git configuration functions of Salt's `git` module: config_get, config_get_regexp,
 * config_set, config_unset (`global=True` for the user's file).
 * Merged into `modules/git.ts`.
 */
import { defineFunction, SALT_ERR_EXEC_COMMAND, SALT_ERR_INVOCATION } from '../kernel/index.js';
import { common, runOpts } from './_git-args.js';
import { parseConfigRegexp } from './_git-parse.js';
import { configGet, configGetter } from './_git-query.js';
import { expandPath, gitRun } from './_git-run.js';

/** The checkout a config function works in: none for `global=True`, else `cwd` (required). */
async function configCwd(
  a: { cwd?: string | null; user?: string | null },
  global: boolean,
): Promise<string | null> {
  if (a.cwd !== undefined && a.cwd !== null) return expandPath(a.cwd, a.user);
  if (!global) throw new SALT_ERR_INVOCATION("'cwd' argument required unless global=True");
  return null;
}

/** The arguments of the functions that take a key and an optional value regex. */
const keyRegexArgs = (z: typeof import('zod').z) =>
  z.object({ key: z.string(), value_regex: z.unknown().optional(), cwd: z.string().nullish(), ...common(z) });

export const configFunctions = {
  config_get: defineFunction({
    args: (z) => z.object({ key: z.string(), cwd: z.string().nullish(), ...common(z) }),
    varkw: true,
    doc: "Get the value of a key in the git configuration file (all=True: every value; global=True: the user's).\n\nCLI Example: salt myminion git.config_get user.name cwd=/path/to/repo",
    run: (ctx, a, extra) => configGet(ctx, a.key, a, extra.kwargs),
  }),
  config_get_regexp: defineFunction({
    args: keyRegexArgs,
    varkw: true,
    doc: "Get the value of a key or keys in the git configuration file using regexes: {key: [values]}.\n\nCLI Example: salt myminion git.config_get_regexp '^user\\.' cwd=/path/to/repo",
    run: async (ctx, a, extra) => {
      const r = await configGetter(ctx, '--get-regexp', a.key, a, extra.kwargs.global === true);
      return r.retcode === 1 ? {} : parseConfigRegexp(r.stdout);
    },
  }),
  config_set: defineFunction({
    args: (z) =>
      z.object({
        key: z.string(),
        value: z.unknown().optional(),
        multivar: z.unknown().optional(),
        cwd: z.string().nullish(),
        ...common(z),
      }),
    varkw: true,
    doc: 'Set a key in the git configuration file (value, or multivar for several); returns the values now set.\n\nCLI Example: salt myminion git.config_set user.email me@example.com cwd=/path/to/repo',
    run: async (ctx, a, extra) => {
      const global = extra.kwargs.global === true;
      const cwd = await configCwd(a, global);
      const has = (v: unknown) => v !== undefined && v !== null;
      if (has(a.value) && has(a.multivar))
        throw new SALT_ERR_INVOCATION("Only one of 'value' and 'multivar' is permitted");
      const prefix = ['git', 'config', ...(global ? ['--global'] : [])];
      const o = runOpts(a, cwd);
      if (has(a.value)) {
        await gitRun(
          ctx,
          [...prefix, extra.kwargs.add === true ? '--add' : '--replace-all', a.key, String(a.value)],
          o,
        );
      } else {
        const mv = Array.isArray(a.multivar) ? a.multivar.map(String) : String(a.multivar ?? '').split(',');
        for (const [i, v] of mv.entries())
          await gitRun(ctx, [...prefix, i === 0 ? '--replace-all' : '--add', a.key, v], o);
      }
      return configGet(ctx, a.key, { ...a, cwd }, { all: true, global });
    },
  }),
  config_unset: defineFunction({
    args: keyRegexArgs,
    varkw: true,
    doc: 'Unset a key in the git configuration file (value_regex: only matching values; all=True: every match of a multivar).\n\nCLI Example: salt myminion git.config_unset /path/to/repo foo.bar all=True',
    run: async (ctx, a, extra) => {
      const global = extra.kwargs.global === true;
      const cwd = await configCwd(a, global);
      const regex = a.value_regex === undefined || a.value_regex === null ? null : String(a.value_regex);
      const command = ['git', 'config', extra.kwargs.all === true ? '--unset-all' : '--unset'];
      command.push(global ? '--global' : '--local', a.key, ...(regex === null ? [] : [regex]));
      const r = await gitRun(ctx, command, runOpts(a, cwd, { failhard: false }));
      if (r.retcode === 0) return true;
      if (r.retcode === 1) throw new SALT_ERR_EXEC_COMMAND('Section or key is invalid');
      if (r.retcode === 5) {
        // as Salt: the key is looked up in the checkout's own config even for global=True, so a
        // global call without cwd ends in the "'cwd' argument required" invocation error
        if ((await configGet(ctx, a.key, { ...a, cwd }, {})) === null)
          throw new SALT_ERR_EXEC_COMMAND(`Key '${a.key}' does not exist`);
        const also = regex === null ? '' : ' and value_regex matches multiple values';
        throw new SALT_ERR_EXEC_COMMAND(`Multiple values exist for key '${a.key}'${also}`);
      }
      if (r.retcode === 6) throw new SALT_ERR_EXEC_COMMAND('The value_regex is invalid');
      const why = r.stderr ? `; ${r.stderr}` : '';
      throw new SALT_ERR_EXEC_COMMAND(
        `Failed to unset key '${a.key}', git config returned exit code ${r.retcode}${why}`,
      );
    },
  }),
};
