/**
 * Salt's `composer` execution module (`salt/modules/composer.py`): run PHP's Composer
 * (`install`, `update`, `selfupdate`) in a project folder, non-interactively, with
 * COMPOSER_HOME set, and tell whether a folder has had `composer install` (a `vendor` folder).
 * A failed run is an error carrying Composer's standard error, as in Salt.
 */
import { existsSync } from 'node:fs';
import {
  defineFunction,
  defineModule,
  type ExecContext,
  SALT_ERR_EXEC_COMMAND,
  SALT_ERR_INVOCATION,
} from '../kernel/index.js';
import { pyStr } from '../kernel/util.js';
import { SALT_ERR_CMD_NOT_FOUND } from './_command-not-found.js';
import { composerFlagArgs } from './_composer-args.js';
import { shlexSplit } from './_shlex.js';
import { which } from './_which.js';

/** The options `install` and `update` take (and `selfupdate` some of). */
export interface ComposerOptions {
  composer?: unknown;
  php?: unknown;
  runas?: unknown;
  prefer_source?: unknown;
  prefer_dist?: unknown;
  no_scripts?: unknown;
  no_plugins?: unknown;
  optimize?: unknown;
  no_dev?: unknown;
  quiet?: unknown;
  composer_home?: unknown;
  env?: unknown;
}

/** Salt's `repack_dictlist` as Composer's env uses it: a list of one-key maps is one map; anything else none. */
function repackEnv(env: unknown): Record<string, unknown> {
  if (!Array.isArray(env)) return {};
  const out: Record<string, unknown> = {};
  for (const el of env) {
    if (typeof el === 'string' || typeof el === 'number') out[String(el)] = null;
    else if (typeof el === 'object' && el !== null && !Array.isArray(el) && Object.keys(el).length === 1)
      Object.assign(out, el);
    else return {};
  }
  return out;
}

/** Salt's `_run_composer`: the run's `cmd.run_all` result (`true` when quiet). */
export async function runComposer(
  ctx: ExecContext,
  action: string,
  directory: unknown,
  o: ComposerOptions,
  extraFlags?: string,
): Promise<unknown> {
  const given = o.composer !== null && o.composer !== undefined;
  const composer = given ? pyStr(o.composer) : 'composer';
  const php = given && (o.php === null || o.php === undefined) ? 'php' : o.php;
  if (!which(composer)) {
    throw new SALT_ERR_CMD_NOT_FOUND(`'composer.${action}' is not available. Couldn't find '${composer}'.`);
  }
  const hasDir = directory !== null && directory !== undefined;
  if (!hasDir && action !== 'selfupdate') {
    throw new SALT_ERR_INVOCATION(`The 'directory' argument is required for composer.${action}`);
  }
  let cmd = [composer, action, '--no-interaction', '--no-ansi'];
  if (extraFlags !== undefined) cmd.push(...shlexSplit(extraFlags));
  if (php !== null && php !== undefined) cmd = [pyStr(php), ...cmd];
  if (hasDir) cmd.push('--working-dir', pyStr(directory));
  const flags: [unknown, string][] = [
    [o.quiet, '--quiet'],
    [o.no_dev, '--no-dev'],
    [o.prefer_source, '--prefer-source'],
    [o.prefer_dist, '--prefer-dist'],
    [o.no_scripts, '--no-scripts'],
    [o.no_plugins, '--no-plugins'],
    [o.optimize, '--optimize-autoloader'],
  ];
  for (const [on, flag] of flags) if (on === true) cmd.push(flag);
  const home = o.composer_home === undefined ? '/root' : o.composer_home;
  const env = o.env === null || o.env === undefined ? {} : repackEnv(o.env);
  env.COMPOSER_HOME = home;
  const result = (await ctx.call('cmd.run_all', [cmd], {
    runas: o.runas ?? null,
    env,
    python_shell: false,
  })) as {
    retcode: number;
    stderr: string;
  };
  if (result.retcode !== 0) throw new SALT_ERR_EXEC_COMMAND(result.stderr);
  return o.quiet === true ? true : result;
}

/** The arguments of `install` and `update`, in Salt's order. */
const projectArgs = (z: typeof import('zod').z) =>
  z.object({
    directory: z.unknown(),
    composer: z.unknown().default(null),
    php: z.unknown().default(null),
    runas: z.unknown().default(null),
    ...composerFlagArgs(z),
    env: z.unknown().default(null),
  });

const OPTIONS_DOC =
  'composer: the composer program (then run with php, default "php"); runas; prefer_source, prefer_dist, no_scripts, no_plugins, optimize (--optimize-autoloader), no_dev: Composer\'s flags when True; quiet: return True instead of the output; composer_home: COMPOSER_HOME (default /root); env: a list of NAME: value maps.';
const cli = (example: string) => `\n\nCLI Example:\n\n    salt '*' composer.${example}`;

export default defineModule({
  name: 'composer',
  doc: "Manage PHP projects' dependencies with Composer.",
  functions: {
    did_composer_install: defineFunction({
      args: (z) => z.object({ dir: z.unknown() }),
      doc: `Whether composer install has been run in a folder (it has a vendor folder).${cli(
        'did_composer_install /var/www/application',
      )}`,
      run: (_ctx, a) => existsSync(`${pyStr(a.dir)}/vendor`),
    }),
    install: defineFunction({
      args: projectArgs,
      doc: `Run composer install in a folder holding composer.json. ${OPTIONS_DOC}${cli(
        'install /var/www/application',
      )}`,
      run: (ctx, a) => runComposer(ctx, 'install', a.directory, a),
    }),
    update: defineFunction({
      args: projectArgs,
      doc: `Run composer update (--no-progress) in a folder holding composer.json. ${OPTIONS_DOC}${cli(
        'update /var/www/application',
      )}`,
      run: (ctx, a) => runComposer(ctx, 'update', a.directory, a, '--no-progress'),
    }),
    selfupdate: defineFunction({
      args: (z) =>
        z.object({
          composer: z.unknown().default(null),
          php: z.unknown().default(null),
          runas: z.unknown().default(null),
          quiet: z.unknown().default(false),
          composer_home: z.unknown().default('/root'),
        }),
      doc: `Update Composer itself (composer selfupdate --no-progress).${cli('selfupdate')}`,
      run: (ctx, a) => runComposer(ctx, 'selfupdate', null, a, '--no-progress'),
    }),
  },
});
