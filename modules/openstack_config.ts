/**
 * Salt's `openstack_config` execution module (`salt/modules/openstack_config.py`): get, set
 * and delete a value in an OpenStack ini file through the `openstack-config` program
 * (openstack-utils' wrapper of crudini). Without the program each function raises Salt's
 * "Command required ... not found" error.
 */
import { defineFunction, defineModule, type ExecContext, SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import { pyStr } from '../kernel/util.js';
import { needProgram } from './_command-not-found.js';

/** Runs `openstack-config <op> <words...>` as argv: its stdout, or its stderr as the error. */
async function openstackConfig(ctx: ExecContext, op: string, words: unknown[]): Promise<string> {
  needProgram('openstack-config');
  const argv = ['openstack-config', op, ...words.map(pyStr)];
  const res = (await ctx.call('cmd.run_all', [argv], { python_shell: false })) as {
    retcode: number;
    stdout: string;
    stderr: string;
  };
  if (res.retcode === 0) return res.stdout;
  throw new SALT_ERR_EXEC_COMMAND(res.stderr);
}

const place = (z: typeof import('zod').z) => ({
  filename: z.unknown(),
  section: z.unknown(),
  parameter: z.unknown(),
});

export default defineModule({
  name: 'openstack_config',
  doc: 'Modify, retrieve, or delete values from OpenStack configuration files (needs openstack-config).',
  functions: {
    set: defineFunction({
      pyName: 'set_',
      args: (z) => z.object({ ...place(z), value: z.unknown() }),
      doc: `Set a value in an OpenStack configuration file.

filename: the full path to the configuration file
section: the section in which the parameter will be set
parameter: the parameter to change
value: the value to set

CLI Example:

    salt-call openstack_config.set /etc/keystone/keystone.conf sql connection foo`,
      run: (ctx, a) => openstackConfig(ctx, '--set', [a.filename, a.section, a.parameter, a.value]),
    }),
    get: defineFunction({
      args: (z) => z.object(place(z)),
      doc: `Get a value from an OpenStack configuration file.

CLI Example:

    salt-call openstack_config.get /etc/keystone/keystone.conf sql connection`,
      run: (ctx, a) => openstackConfig(ctx, '--get', [a.filename, a.section, a.parameter]),
    }),
    delete: defineFunction({
      args: (z) => z.object(place(z)),
      doc: `Delete a value from an OpenStack configuration file.

CLI Example:

    salt-call openstack_config.delete /etc/keystone/keystone.conf sql connection`,
      run: (ctx, a) => openstackConfig(ctx, '--del', [a.filename, a.section, a.parameter]),
    }),
  },
});
