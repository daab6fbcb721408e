/**
 * Salt's `composer` state module (`salt/states/composer.py`): `composer.installed` runs
 * `composer install` in a project folder (every time unless `always_check=False` and a
 * `vendor` folder is there) and `composer.update` runs `composer update`, both through the
 * `composer` execution module, reporting Composer's output as the changes.
 */
import { SaltError } from '../kernel/index.js';
import { composerFlagArgs } from '../modules/_composer-args.js';
import { defineState, defineStateModule, type StateReturn } from '../plugins/states/index.js';

/** The arguments both states take besides `name` (`user` runs Composer as that user). */
const composerArgs = (z: typeof import('zod').z) => ({
  name: z.string(),
  composer: z.unknown().default(null),
  php: z.unknown().default(null),
  user: z.unknown().default(null),
  ...composerFlagArgs(z),
});

type Args = { [K in keyof ReturnType<typeof composerArgs>]: unknown } & { name: string; env: unknown };

type RunAll = { stdout: string; stderr: string };

/** Runs `composer.<fun>` for the state; a Salt error becomes the failed state's comment. */
async function runAndReport(
  call: (fun: string, args: unknown[], kwargs: Record<string, unknown>) => Promise<unknown>,
  fun: 'install' | 'update',
  a: Args,
): Promise<StateReturn> {
  const ret: StateReturn = { name: a.name, result: null, comment: '', changes: {} };
  let out: unknown;
  try {
    out = await call(`composer.${fun}`, [a.name], {
      composer: a.composer,
      php: a.php,
      runas: a.user,
      prefer_source: a.prefer_source,
      prefer_dist: a.prefer_dist,
      no_scripts: a.no_scripts,
      no_plugins: a.no_plugins,
      optimize: a.optimize,
      no_dev: a.no_dev,
      quiet: a.quiet,
      composer_home: a.composer_home,
      env: a.env,
    });
  } catch (err) {
    if (!(err instanceof SaltError)) throw err;
    return { ...ret, result: false, comment: `Error executing composer in '${a.name}': ${err.message}` };
  }
  const word = fun === 'install' ? 'install' : 'update';
  if (a.quiet === true) {
    return {
      ...ret,
      result: true,
      comment: `Composer ${word} completed successfully, output silenced by quiet flag`,
    };
  }
  const { stderr, stdout } = out as RunAll;
  return {
    ...ret,
    result: true,
    comment: `Composer ${word} completed successfully`,
    changes: { stderr, stdout },
  };
}

const installed = defineState({
  args: (z) =>
    z.object({ ...composerArgs(z), always_check: z.unknown().default(true), env: z.unknown().default(null) }),
  doc: `Verify that composer install has been run in the folder (name) holding composer.json.

composer, php, user (run as), prefer_source, prefer_dist, no_scripts, no_plugins, optimize, no_dev, quiet, composer_home, env: as composer.install; always_check (default True): run composer install even when a vendor folder is there.`,
  async run(ctx, a): Promise<StateReturn> {
    const didInstall = (await ctx.call('composer.did_composer_install', [a.name])) === true;
    if (a.always_check === false && didInstall) {
      return {
        name: a.name,
        result: true,
        comment: 'Composer already installed this directory',
        changes: {},
      };
    }
    if (ctx.test) {
      return {
        name: a.name,
        result: null,
        comment: `The state of "${a.name}" will be changed.`,
        changes: {
          old: `composer install has ${didInstall ? '' : 'not '}been run in ${a.name}`,
          new: `composer install will be run in ${a.name}`,
        },
      };
    }
    return runAndReport(ctx.call, 'install', a);
  },
});

const update = defineState({
  args: (z) => z.object({ ...composerArgs(z), env: z.unknown().default(null) }),
  doc: `Run composer update in the folder (name) holding composer.json.

composer, php, user (run as), prefer_source, prefer_dist, no_scripts, no_plugins, optimize, no_dev, quiet, composer_home, env: as composer.update.`,
  async run(ctx, a): Promise<StateReturn> {
    const isInstalled = (await ctx.call('composer.did_composer_install', [a.name])) === true;
    if (ctx.test) {
      // Salt's words, which say the opposite of what the vendor folder shows
      const old = isInstalled
        ? `composer install has not yet been run in ${a.name}`
        : `composer install has been run in ${a.name}`;
      return {
        name: a.name,
        result: null,
        comment: `The state of "${a.name}" will be changed.`,
        changes: { old, new: `composer install/update will be run in ${a.name}` },
      };
    }
    return runAndReport(ctx.call, 'update', a);
  },
});

export default defineStateModule({
  name: 'composer',
  doc: 'Install and update PHP dependencies with Composer (composer.installed, composer.update).',
  functions: { installed, update },
});
