/**
 * Salt's `s6` execution module (`salt/modules/s6.py`): services supervised by s6, through
 * `s6-svc` (start, stop, term, reload, restart) and `s6-svstat` (status: the pid when up) on
 * `<service dir>/<name>`. The service dir is Salt's first of `/service` and `/etc/service` that
 * exists; tsalt's `s6_service_dir` minion option names another.
 */
import { existsSync, readdirSync } from 'node:fs';
import { defineFunction, defineModule, type ExecContext, SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import { compareCodePoints, pyStr } from '../kernel/python/index.js';
import { pyOsError } from './_py-oserror.js';

const VALID_SERVICE_DIRS = ['/service', '/etc/service'];

function serviceDir(ctx: ExecContext): string {
  const dir =
    typeof ctx.opts.s6_service_dir === 'string'
      ? ctx.opts.s6_service_dir
      : VALID_SERVICE_DIRS.find((d) => existsSync(d));
  if (!dir) throw new SALT_ERR_EXEC_COMMAND('Could not find service directory.');
  return dir;
}

const servicePath = (ctx: ExecContext, name: unknown) => `${serviceDir(ctx)}/${pyStr(name)}`;

/** `s6-svc -<flag> <service>`: true when it exits 0. */
async function svc(ctx: ExecContext, flag: string, name: unknown): Promise<boolean> {
  const cmd = `s6-svc -${flag} ${servicePath(ctx, name)}`;
  return !(await ctx.call('cmd.retcode', [cmd], { python_shell: false }));
}

function getAll(ctx: ExecContext): string[] {
  const dir = serviceDir(ctx);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (err) {
    throw new SALT_ERR_EXEC_COMMAND(pyOsError(err, dir));
  }
  return names.filter((n) => !n.startsWith('.')).sort(compareCodePoints);
}

const cli = (fn: string, arg = '<service name>') => `\n\nCLI Example:\n\n    salt '*' s6.${fn} ${arg}`;

const signal = (flag: string, what: string, fn: string) =>
  defineFunction({
    args: (z) => z.object({ name: z.unknown() }),
    doc: `${what} via s6 (s6-svc -${flag}).${cli(fn)}`,
    run: (ctx, a) => svc(ctx, flag, a.name),
  });

export default defineModule({
  name: 's6',
  doc: 'Services supervised by s6 (s6-svc, s6-svstat); usable as the service provider.',
  functions: {
    start: signal('u', 'Start the service', 'start'),
    stop: signal('d', 'Stop the service', 'stop'),
    term: signal('t', 'Send a TERM to the service', 'term'),
    reload: { ...signal('h', 'Send a HUP to the service', 'reload'), pyName: 'reload_' },
    restart: signal('t', 'Restart the service (a TERM; s6 starts it again)', 'restart'),
    full_restart: defineFunction({
      args: (z) => z.object({ name: z.unknown() }),
      doc: `Restart the service via s6.restart; returns nothing.${cli('full_restart')}`,
      run: async (ctx, a) => {
        await svc(ctx, 't', a.name);
        return null;
      },
    }),
    status: defineFunction({
      args: (z) => z.object({ name: z.unknown(), sig: z.unknown().default(null) }),
      doc: `The service's pid when it is up, else an empty string (s6-svstat).${cli('status')}`,
      run: async (ctx, a) => {
        const out = String(
          await ctx.call('cmd.run_stdout', [`s6-svstat ${servicePath(ctx, a.name)}`], {
            python_shell: false,
          }),
        );
        return /up \(pid (\d+)\)/.exec(out)?.[1] ?? '';
      },
    }),
    available: defineFunction({
      args: (z) => z.object({ name: z.unknown() }),
      doc: `Whether the service exists in the service directory.${cli('available', 'foo')}`,
      run: (ctx, a) => getAll(ctx).includes(a.name as string),
    }),
    missing: defineFunction({
      args: (z) => z.object({ name: z.unknown() }),
      doc: `Whether the service does not exist in the service directory (the inverse of s6.available).${cli('missing', 'foo')}`,
      run: (ctx, a) => !getAll(ctx).includes(a.name as string),
    }),
    get_all: defineFunction({
      doc: `The services in the service directory, sorted.${cli('get_all', '')}`,
      run: (ctx) => getAll(ctx),
    }),
  },
});
