/**
 * Salt's `openstack_config` state module (`salt/states/openstack_config.py`): `present` and
 * `absent` set or delete one parameter of an OpenStack ini file through the
 * `openstack_config` module. A "Parameter not found:" error means the value is absent.
 */
import { SaltError } from '../kernel/index.js';
import { defineState, defineStateModule, type StateReturn } from '../plugins/states/index.js';

/** Whether `err` is the module's error for a parameter the file does not have. */
const notFound = (err: unknown): boolean =>
  err instanceof SaltError &&
  err.code === 'SALT_ERR_EXEC_COMMAND' &&
  err.message.toLowerCase().startsWith('parameter not found:');

const present = defineState({
  args: (z) =>
    z.object({
      name: z.string(),
      filename: z.unknown(),
      section: z.unknown(),
      value: z.unknown(),
      parameter: z.unknown().default(null),
    }),
  doc: `Ensure a value is set in an OpenStack configuration file.

filename: the full path to the configuration file
section: the section in which the parameter will be set
parameter: the parameter to change (default: the name)
value: the value to set`,
  async run(ctx, a): Promise<StateReturn> {
    const ret: StateReturn = { name: a.name, changes: {}, result: false, comment: '' };
    const where = { filename: a.filename, section: a.section, parameter: a.parameter ?? a.name };
    try {
      const old = await ctx.call('openstack_config.get', [], where);
      if (old === a.value)
        return { ...ret, result: true, comment: 'The value is already set to the correct value' };
      if (ctx.test)
        return {
          ...ret,
          result: null,
          comment: `Value '${String(old)}' is set to be changed to '${String(a.value)}'.`,
        };
    } catch (err) {
      if (!notFound(err)) throw err;
    }
    await ctx.call('openstack_config.set', [], { ...where, value: a.value });
    return { ...ret, changes: { Value: 'Updated' }, result: true, comment: 'The value has been updated' };
  },
});

const absent = defineState({
  args: (z) =>
    z.object({
      name: z.string(),
      filename: z.unknown(),
      section: z.unknown(),
      parameter: z.unknown().default(null),
    }),
  doc: `Ensure a value is not set in an OpenStack configuration file.

filename: the full path to the configuration file
section: the section of the parameter
parameter: the parameter to delete (default: the name)`,
  async run(ctx, a): Promise<StateReturn> {
    const ret: StateReturn = { name: a.name, changes: {}, result: false, comment: '' };
    const where = { filename: a.filename, section: a.section, parameter: a.parameter ?? a.name };
    let old: unknown;
    try {
      old = await ctx.call('openstack_config.get', [], where);
    } catch (err) {
      if (notFound(err)) return { ...ret, result: true, comment: 'The value is already absent' };
      throw err;
    }
    if (ctx.test) return { ...ret, result: null, comment: `Value '${String(old)}' is set to be deleted.` };
    await ctx.call('openstack_config.delete', [], where);
    return { ...ret, changes: { Value: 'Deleted' }, result: true, comment: 'The value has been deleted' };
  },
});

export default defineStateModule({
  name: 'openstack_config',
  doc: 'Manage OpenStack configuration file settings (openstack_config.present/absent).',
  functions: { present, absent },
});
