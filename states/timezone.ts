/**
 * Salt's `timezone` state module (`salt/states/timezone.py`): `timezone.system` sets the
 * system time zone and whether the hardware clock keeps UTC, through the `timezone` module.
 */
import { SaltError } from '../kernel/index.js';
import { defineState, defineStateModule, type StateReturn } from '../plugins/states/index.js';

const pyBool = (v: unknown) => (v === true ? 'True' : v === false ? 'False' : String(v));

export default defineStateModule({
  name: 'timezone',
  doc: 'Management of timezones (timezone.system).',
  functions: {
    system: defineState({
      args: (z) => z.object({ name: z.string(), utc: z.unknown().default(true) }),
      doc: 'Set the timezone for the system; utc (default True) sets the hardware clock to UTC.',
      async run(ctx, { name, utc }): Promise<StateReturn> {
        const ret: StateReturn = { name, changes: {}, result: null, comment: '' };
        let compzone: boolean;
        try {
          compzone = (await ctx.call('timezone.zone_compare', [name])) === true;
        } catch (err) {
          if (!(err instanceof SaltError)) throw err;
          return {
            ...ret,
            result: false,
            comment: `Unable to compare desired timezone '${name}' to system timezone: ${err.message}`,
          };
        }
        const myutc = (await ctx.call('timezone.get_hwclock', [])) !== 'localtime';
        const messages: string[] = [];
        let doZone = false;
        let doUtc = false;
        if (compzone) {
          ret.result = true;
          messages.push(`Timezone ${name} already set`);
        } else doZone = true;
        if (utc && utc !== myutc) {
          ret.result = null;
          doUtc = true;
        } else if (utc && utc === myutc) messages.push(`UTC already set to ${name}`);
        if (ret.result === true) return { ...ret, comment: messages.join(', ') };
        if (ctx.test) {
          const m: string[] = [];
          if (!compzone) m.push(`Timezone ${name} needs to be set`);
          if (utc && myutc !== utc) m.push(`UTC needs to be set to ${pyBool(utc)}`);
          return { ...ret, comment: m.join(', ') };
        }
        const done: string[] = [];
        if (doZone) {
          if (await ctx.call('timezone.set_zone', [name])) {
            ret.changes.timezone = name;
            done.push(`Set timezone ${name}`);
            ret.result = true;
          } else {
            done.push('Failed to set timezone');
            ret.result = false;
          }
        }
        if (doUtc) {
          if (await ctx.call('timezone.set_hwclock', [utc ? 'UTC' : 'localtime'])) {
            ret.changes.utc = utc;
            done.push(`Set UTC to ${pyBool(utc)}`);
            ret.result = true;
          } else {
            done.push(`Failed to set UTC to ${pyBool(utc)}`);
            ret.result = false;
          }
        }
        return { ...ret, comment: done.join(', ') };
      },
    }),
  },
});
