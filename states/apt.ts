/**
 * Salt's `apt` state module (`salt/states/aptpkg.py`): `held`, a package's dpkg selection set
 * to `hold` (through `pkg.get_selections` and `pkg.set_selections`) so upgrades leave it alone.
 */
import { defineState, defineStateModule } from '../plugins/states/index.js';

/** Salt's `salt.utils.data.is_true`: numbers above 0, the string `true`, else Python truthiness. */
function isTrue(v: unknown): boolean {
  const n = typeof v === 'boolean' ? Number(v) : typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  if (typeof n === 'number' && !Number.isNaN(n)) return n > 0;
  if (typeof v === 'string') return v.toLowerCase() === 'true';
  if (Array.isArray(v)) return v.length > 0;
  if (v && typeof v === 'object') return Object.keys(v).length > 0;
  return !!v;
}

const held = defineState({
  args: (z) => z.object({ name: z.string() }),
  doc: "Set package in 'hold' state, meaning it will not be upgraded.",
  run: async (ctx, { name }) => {
    const ret = {
      name,
      changes: {} as Record<string, unknown>,
      result: false as boolean | null,
      comment: '',
    };
    const state = (await ctx.call('pkg.get_selections', [], { pattern: name })) as Record<string, string[]>;
    if (!state || !Object.keys(state).length) ret.comment = `Package ${name} does not have a state`;
    else if (!isTrue(state.hold ?? false)) {
      if (ctx.test) Object.assign(ret, { result: null, comment: `Package ${name} is set to be held` });
      else {
        const result = (await ctx.call('pkg.set_selections', [], { selection: { hold: [name] } })) as Record<
          string,
          Record<string, unknown>
        >;
        Object.assign(ret, {
          changes: result[name],
          result: true,
          comment: `Package ${name} is now being held`,
        });
      }
    } else Object.assign(ret, { result: true, comment: `Package ${name} is already held` });
    return ret;
  },
});

export default defineStateModule({
  name: 'apt',
  doc: 'Package management operations specific to APT- and DEB-based systems.',
  virtual: (ctx) =>
    ctx.grains.os_family === 'Debian' || { ok: false, reason: 'apt module could not be loaded' },
  functions: { held },
});
