/**
 * Salt's `kernelpkg` state module (`salt/states/kernelpkg.py`) over the `kernelpkg` execution
 * module: the newest kernel package installed (`latest_installed`), and a reboot into the newest
 * installed kernel when the running one is older (`latest_active`, or `latest_wait` through a
 * watch or listen requisite, which calls `mod_watch`).
 */
import { pyStr } from '../kernel/python/index.js';
import {
  defineState,
  defineStateModule,
  type StateContext,
  type StateReturn,
} from '../plugins/states/index.js';

async function latestActive(ctx: StateContext, name: string, atTime: unknown): Promise<StateReturn> {
  const active = await ctx.call('kernelpkg.active', [], {});
  const latest = await ctx.call('kernelpkg.latest_installed', [], {});
  if (!(await ctx.call('kernelpkg.needs_reboot', [], {})))
    return {
      name,
      result: true,
      comment: `The latest installed kernel package is active: ${pyStr(active)}`,
      changes: {},
    };
  const comment = `The system will be booted to activate kernel: ${pyStr(latest)}`;
  const changes = { kernel: { old: active, new: latest } };
  if (ctx.test) return { name, comment, result: null, changes };
  await ctx.call('system.reboot', [], { at_time: atTime ?? null });
  return { name, comment, result: true, changes };
}

const atTimeArgs = (z: typeof import('zod').z) =>
  z.object({ name: z.string(), at_time: z.unknown().optional() });

export default defineStateModule({
  name: 'kernelpkg',
  doc: 'Kernel package management: the latest kernel installed, and active (kernelpkg.latest_installed, latest_active, latest_wait).',
  // Salt loads these when kernelpkg.upgrade is there: the apt provider's own test, on Debian's family
  virtual: (ctx) =>
    ['Kali', 'Debian', 'Cumulus'].includes(String(ctx.grains.os_family ?? '')) || {
      ok: false,
      reason: 'kernelpkg module could not be loaded',
    },
  functions: {
    latest_installed: defineState({
      args: (z) => z.object({ name: z.string() }),
      varkw: true,
      doc: 'Ensure that the latest version of the kernel available in the repositories is installed (not activated).',
      async run(ctx, { name }): Promise<StateReturn> {
        const installed = (await ctx.call('kernelpkg.list_installed', [], {})) as unknown[];
        const upgrade = await ctx.call('kernelpkg.latest_available', [], {});
        if (installed.includes(upgrade))
          return {
            name,
            result: true,
            comment: `The latest kernel package is already installed: ${pyStr(upgrade)}`,
            changes: {},
          };
        if (ctx.test)
          return {
            name,
            result: null,
            changes: {},
            comment: `The latest kernel package will be installed: ${pyStr(upgrade)}`,
          };
        await ctx.call('kernelpkg.upgrade', [], {});
        return {
          name,
          result: true,
          changes: {},
          comment: 'The latest kernel package has been installed, but not activated.',
        };
      },
    }),
    latest_active: defineState({
      args: atTimeArgs,
      varkw: true,
      doc: 'Initiate a reboot if the running kernel is not the latest one installed.',
      run: (ctx, a) => latestActive(ctx, a.name, a.at_time),
    }),
    latest_wait: defineState({
      args: atTimeArgs,
      varkw: true,
      doc: 'Like latest_active, but only when a watch or listen requisite fires (through mod_watch).',
      run: (_ctx, { name }) => ({ name, changes: {}, result: true, comment: '' }),
    }),
    mod_watch: defineState({
      args: (z) => z.object({ name: z.string(), sfun: z.string() }),
      varkw: true,
      doc: 'Run latest_active for a kernelpkg.latest_active or latest_wait state a watch or listen requisite fired.',
      run(ctx, { name, sfun }, extra) {
        if (sfun === 'latest_active' || sfun === 'latest_wait')
          return latestActive(ctx, name, extra.kwargs.at_time);
        return {
          name,
          changes: {},
          comment: `kernelpkg.${sfun} does not work with the watch requisite.`,
          result: false,
        };
      },
    }),
  },
});
