/**
 * Salt's `django` execution module (`salt/modules/djangomod.py`): run `django-admin` management
 * commands (migrate, createsuperuser, loaddata, collectstatic, the old syncdb, or any other) for
 * a settings module, through `cmd.run`, whose combined output is the return.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { defineFunction, defineModule, type ExecContext, SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import { pyStr, pyTruthy } from '../kernel/util.js';
import { which } from './_which.js';

/** Salt's `_get_django_admin`: `bin_env`'s django-admin.py, else `bin_env` itself, else the one on PATH. */
function djangoAdmin(binEnv: unknown): string {
  if (!pyTruthy(binEnv)) {
    for (const exe of ['django-admin.py', 'django-admin']) if (which(exe)) return exe;
    throw new SALT_ERR_EXEC_COMMAND('django-admin or django-admin.py not found on PATH');
  }
  const inEnv = path.join(pyStr(binEnv), 'bin', 'django-admin.py');
  return existsSync(inEnv) ? inEnv : pyStr(binEnv);
}

/** Where and how a management command runs: the arguments every function passes on. */
interface Where {
  settings_module: unknown;
  bin_env: unknown;
  pythonpath: unknown;
  env: unknown;
  runas: unknown;
}

/** Salt's `command`: `<django-admin> <command> --settings=… [--pythonpath=…] --<flag>… --<key>=<value>…`. */
async function manage(
  ctx: ExecContext,
  where: Where,
  command: unknown,
  flags: readonly unknown[],
  options: Readonly<Record<string, unknown>>,
): Promise<unknown> {
  let cmd = `${djangoAdmin(where.bin_env)} ${pyStr(command)} --settings=${pyStr(where.settings_module)}`;
  if (pyTruthy(where.pythonpath)) cmd += ` --pythonpath=${pyStr(where.pythonpath)}`;
  for (const flag of flags) cmd += ` --${pyStr(flag)}`;
  for (const [key, value] of Object.entries(options))
    if (!key.startsWith('__')) cmd += ` --${key}=${pyStr(value)}`;
  return ctx.call('cmd.run', [cmd], { env: where.env, runas: where.runas, python_shell: false });
}

const where = (z: typeof import('zod').z) => ({
  bin_env: z.unknown().default(null),
  pythonpath: z.unknown().default(null),
  env: z.unknown().default(null),
  runas: z.unknown().default(null),
});

const cli = (example: string) => `\n\nCLI Example:\n\n    salt '*' django.${example}`;

export default defineModule({
  name: 'django',
  doc: "Manage Django sites with django-admin's management commands.",
  functions: {
    command: defineFunction({
      args: (z) => z.object({ settings_module: z.unknown(), command: z.unknown(), ...where(z) }),
      varargs: true,
      varkw: true,
      doc: `Run a django-admin management command; extra positional arguments become --flags, extra keywords --key=value options. Returns the command's output.${cli(
        'command <settings_module> <command>',
      )}`,
      run: (ctx, a, extra) => manage(ctx, a, a.command, extra.args, extra.kwargs),
    }),
    syncdb: defineFunction({
      args: (z) =>
        z.object({
          settings_module: z.unknown(),
          bin_env: z.unknown().default(null),
          migrate: z.unknown().default(false),
          database: z.unknown().default(null),
          pythonpath: z.unknown().default(null),
          env: z.unknown().default(null),
          noinput: z.unknown().default(true),
          runas: z.unknown().default(null),
        }),
      doc: `Run syncdb (Django before 1.9); migrate=True adds --migrate, database names the database, noinput (default True) adds --noinput.${cli(
        'syncdb <settings_module>',
      )}`,
      run: (ctx, a) => {
        const flags = [
          ...(pyTruthy(a.migrate) ? ['migrate'] : []),
          ...(pyTruthy(a.noinput) ? ['noinput'] : []),
        ];
        const options = pyTruthy(a.database) ? { database: a.database } : {};
        return manage(ctx, a, 'syncdb', flags, options);
      },
    }),
    migrate: defineFunction({
      args: (z) =>
        z.object({
          settings_module: z.unknown(),
          app_label: z.unknown().default(null),
          migration_name: z.unknown().default(null),
          bin_env: z.unknown().default(null),
          database: z.unknown().default(null),
          pythonpath: z.unknown().default(null),
          env: z.unknown().default(null),
          noinput: z.unknown().default(true),
          runas: z.unknown().default(null),
        }),
      doc: `Run migrate, for every app or for app_label (to migration_name when given).${cli(
        'migrate <settings_module> [<app_label>] [<migration_name>]',
      )}`,
      run: (ctx, a) => {
        let cmd = 'migrate';
        if (pyTruthy(a.app_label)) cmd += ` ${pyStr(a.app_label)}`;
        if (pyTruthy(a.app_label) && pyTruthy(a.migration_name)) cmd += ` ${pyStr(a.migration_name)}`;
        const options = pyTruthy(a.database) ? { database: a.database } : {};
        return manage(ctx, a, cmd, pyTruthy(a.noinput) ? ['noinput'] : [], options);
      },
    }),
    createsuperuser: defineFunction({
      args: (z) =>
        z.object({
          settings_module: z.unknown(),
          username: z.unknown(),
          email: z.unknown(),
          bin_env: z.unknown().default(null),
          database: z.unknown().default(null),
          pythonpath: z.unknown().default(null),
          env: z.unknown().default(null),
          runas: z.unknown().default(null),
        }),
      doc: `Create a superuser without a password (--noinput); set one later with Django's changepassword.${cli(
        'createsuperuser <settings_module> user user@example.com',
      )}`,
      run: (ctx, a) => {
        const options: Record<string, unknown> = { email: a.email, username: a.username };
        if (pyTruthy(a.database)) options.database = a.database;
        return manage(ctx, a, 'createsuperuser', ['noinput'], options);
      },
    }),
    loaddata: defineFunction({
      args: (z) =>
        z.object({
          settings_module: z.unknown(),
          fixtures: z.unknown(),
          bin_env: z.unknown().default(null),
          database: z.unknown().default(null),
          pythonpath: z.unknown().default(null),
          env: z.unknown().default(null),
        }),
      doc: `Load fixture data: fixtures is a comma-separated list of fixture names.${cli(
        'loaddata <settings_module> <comma delimited list of fixtures>',
      )}`,
      run: (ctx, a) => {
        const cmd = `loaddata ${pyStr(a.fixtures).split(',').join(' ')}`;
        const options = pyTruthy(a.database) ? { database: a.database } : {};
        return manage(ctx, { ...a, runas: null }, cmd, [], options);
      },
    }),
    collectstatic: defineFunction({
      args: (z) =>
        z.object({
          settings_module: z.unknown(),
          bin_env: z.unknown().default(null),
          no_post_process: z.unknown().default(false),
          ignore: z.unknown().default(null),
          dry_run: z.unknown().default(false),
          clear: z.unknown().default(false),
          link: z.unknown().default(false),
          no_default_ignore: z.unknown().default(false),
          pythonpath: z.unknown().default(null),
          env: z.unknown().default(null),
          runas: z.unknown().default(null),
        }),
      doc: `Collect the static files into STATIC_ROOT (--noinput; no_post_process, dry_run, clear, link, no_default_ignore add those flags; ignore a pattern).${cli(
        'collectstatic <settings_module>',
      )}`,
      run: (ctx, a) => {
        const flags = ['noinput'];
        if (pyTruthy(a.no_post_process)) flags.push('no-post-process');
        if (pyTruthy(a.dry_run)) flags.push('dry-run');
        if (pyTruthy(a.clear)) flags.push('clear');
        if (pyTruthy(a.link)) flags.push('link');
        if (pyTruthy(a.no_default_ignore)) flags.push('no-default-ignore');
        const options = pyTruthy(a.ignore) ? { ignore: a.ignore } : {};
        return manage(ctx, a, 'collectstatic', flags, options);
      },
    }),
  },
});
