/**
 * Salt's `pip.uptodate` state (`salt/states/pip_state.py`): upgrade every outdated package of
 * an environment through `pip.upgrade`, after `pip.list_upgrades` says there is something to do.
 */
import { defineState, type StateReturn } from '../plugins/states/index.js';

export const uptodate = defineState({
  args: (z) =>
    z.object({
      name: z.string(),
      bin_env: z.string().nullish(),
      user: z.string().nullish(),
      cwd: z.string().nullish(),
      use_vt: z.boolean().default(false),
    }),
  doc: 'Verify that the system is completely up to date (every pip package at its latest version).',
  async run(ctx, a): Promise<StateReturn> {
    const ret: StateReturn = { name: a.name, changes: {}, result: false, comment: 'Failed to update.' };
    const call = { bin_env: a.bin_env ?? null, user: a.user ?? null, cwd: a.cwd ?? null };
    let packages: Record<string, unknown>;
    try {
      packages = (await ctx.call('pip.list_upgrades', [], call)) as Record<string, unknown>;
    } catch (err) {
      return { ...ret, comment: err instanceof Error ? err.message : String(err) };
    }
    if (!Object.keys(packages).length)
      return { ...ret, result: true, comment: 'System is already up-to-date.' };
    if (ctx.test) return { ...ret, result: null, comment: 'System update will be performed' };
    const updated = (await ctx.call('pip.upgrade', [], { ...call, use_vt: a.use_vt })) as Record<
      string,
      unknown
    >;
    if (updated.result === false) return { ...ret, ...updated } as StateReturn;
    if (Object.keys(updated).length)
      return { ...ret, changes: updated, result: true, comment: 'Upgrade successful.' };
    return { ...ret, comment: 'Upgrade failed.' };
  },
});
