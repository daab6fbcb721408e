/**
 * Salt's `sysctl` state module (`salt/states/sysctl.py`): `sysctl.present` sets a kernel
 * parameter now and in a config file, through the `sysctl` execution module.
 */
import { defineState, defineStateModule, type StateReturn } from '../plugins/states/index.js';

const squash = (s: string) => s.replace(/ +|\t+/g, ' ');
const pyStrOf = (v: unknown) => (v === true ? 'True' : v === false ? 'False' : String(v));

export default defineStateModule({
  name: 'sysctl',
  doc: 'Configuration of the kernel using sysctl (sysctl.present).',
  functions: {
    present: defineState({
      args: (z) => z.object({ name: z.string(), value: z.unknown(), config: z.string().nullish() }),
      doc: 'Ensure that the named sysctl value is set in memory and persisted to the named configuration file.',
      async run(ctx, a): Promise<StateReturn> {
        const { name } = a;
        const value = pyStrOf(a.value);
        const ret: StateReturn = { name, result: true, changes: {}, comment: '' };
        const config = a.config ?? String(await ctx.call('sysctl.default_config', []));
        if (ctx.test) {
          const configured = (await ctx.call('sysctl.show', [], { config_file: config })) as
            | Record<string, string>
            | string[]
            | null;
          if (configured === null) {
            return {
              ...ret,
              result: null,
              comment: `Sysctl option ${name} might be changed, we failed to check config file at ${config}. The file is either unreadable, or missing.`,
            };
          }
          const current = String(await ctx.call('sysctl.get', [name]));
          const inConfig = !Array.isArray(configured) && name in configured;
          if (current) {
            if (inConfig) {
              const want = value.split(/\s+/).filter(Boolean).join(' ');
              if (want === current.split(/\s+/).filter(Boolean).join(' '))
                return { ...ret, comment: `Sysctl value ${name} = ${value} is already set` };
            } else if (squash(current) !== squash(value)) {
              return { ...ret, result: null, comment: `Sysctl option ${name} set to be changed to ${value}` };
            } else {
              return {
                ...ret,
                result: null,
                comment: `Sysctl value is currently set on the running system but not in a config file. Sysctl option ${name} set to be changed to ${value} in config file.`,
              };
            }
          } else if (inConfig) {
            return {
              ...ret,
              result: null,
              comment: `Sysctl value ${name} is present in configuration file but is not present in the running config. The value ${name} is set to be changed to ${value}`,
            };
          }
          return { ...ret, result: null, comment: `Sysctl option ${name} would be changed to ${value}` };
        }
        let update: unknown;
        try {
          update = await ctx.call('sysctl.persist', [name, a.value, config]);
        } catch (err) {
          return {
            ...ret,
            result: false,
            comment: `Failed to set ${name} to ${value}: ${err instanceof Error ? err.message : String(err)}`,
          };
        }
        if (update === 'Updated') {
          ret.changes = { [name]: a.value };
          ret.comment = `Updated sysctl value ${name} = ${value}`;
        } else if (update === 'Already set') ret.comment = `Sysctl value ${name} = ${value} is already set`;
        return ret;
      },
    }),
  },
});
