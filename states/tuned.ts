/**
 * Salt's `tuned` state module (`salt/states/tuned.py`): `tuned.profile` switches TuneD to the
 * named profile, `tuned.off` turns it off, through the `tuned` execution module.
 */
import { SALT_ERR_INVOCATION } from '../kernel/index.js';
import { pyStr } from '../kernel/util.js';
import { defineState, defineStateModule, type StateReturn } from '../plugins/states/index.js';

/** What `test=True` answers: the change from the active profile to `target`. */
function predicted(ret: StateReturn, current: string, target: string): StateReturn {
  return {
    ...ret,
    result: null,
    comment: `The state of "${current}" will be changed.`,
    changes: { old: current, new: `Profile will be set to ${target}` },
  };
}

export default defineStateModule({
  name: 'tuned',
  doc: 'TuneD profiles (tuned.profile, tuned.off).',
  functions: {
    profile: defineState({
      args: (z) => z.object({ name: z.unknown() }),
      doc: 'Switch TuneD to the profile `name` (one that tuned.list shows).',
      async run(ctx, a): Promise<StateReturn> {
        const profile = pyStr(a.name);
        // Salt's return names no state and carries the profile under its own name
        const ret: StateReturn = { name: '', changes: {}, result: false, comment: '' };
        ret[profile] = a.name;
        const current = pyStr(await ctx.call('tuned.active', []));
        const valid = (await ctx.call('tuned.list', [])) as string[];
        if (!valid.includes(profile)) throw new SALT_ERR_INVOCATION('Invalid Profile Name');
        // Salt tests `profile in current_state`: a substring of the active profile's name
        if (current.includes(profile))
          return { ...ret, result: true, comment: 'System already in the correct state' };
        if (ctx.test) return predicted(ret, current, profile);
        const now = await ctx.call('tuned.profile', [a.name]);
        return {
          ...ret,
          result: true,
          comment: `The state of "${profile}" was changed!`,
          changes: { old: current, new: now },
        };
      },
    }),
    off: defineState({
      args: (z) => z.object({ name: z.unknown().default(null) }),
      doc: 'Turn TuneD off.',
      async run(ctx): Promise<StateReturn> {
        const ret: StateReturn = { name: 'off', changes: {}, result: false, comment: 'off' };
        const current = pyStr(await ctx.call('tuned.active', []));
        if (current === 'off')
          return { ...ret, result: true, comment: 'System already in the correct state' };
        if (ctx.test) return predicted(ret, current, 'off');
        if (await ctx.call('tuned.off', []))
          return { ...ret, result: true, changes: { old: current, new: 'off' } };
        // Salt's function ends without a return when tuned-adm fails: the state system reports
        // the malformed (None) return
        return undefined as unknown as StateReturn;
      },
    }),
  },
});
