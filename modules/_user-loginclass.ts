/**
 * Salt's `user.get_loginclass` and `user.chloginclass`, merged into `modules/user.ts`. Login
 * classes are OpenBSD's (`userinfo`, `usermod -L`); on every other kernel Salt answers False.
 */
import { defineFunction, type ExecContext } from '../kernel/index.js';

async function loginClass(ctx: ExecContext, name: string): Promise<string | false> {
  if (ctx.grains.kernel !== 'OpenBSD') return false;
  const out = String(await ctx.call('cmd.run_stdout', [['userinfo', name]], { python_shell: false }));
  for (const line of out.split(/\r\n|\r|\n/)) {
    if (!line.startsWith('class')) continue;
    const parts = line.trim().split(/\s+/);
    if (parts.length > 1) return line.trim().slice(parts[0]!.length).trim();
  }
  return '';
}

const str = (z: typeof import('zod').z) => z.union([z.string(), z.number()]).transform(String);

export const loginClassFunctions = {
  get_loginclass: defineFunction({
    args: (z) => z.object({ name: str(z) }),
    doc: `Get the login class of the user. This function only applies to OpenBSD systems.

CLI Example:

    salt '*' user.get_loginclass foo`,
    run: (ctx, a) => loginClass(ctx, a.name),
  }),
  chloginclass: defineFunction({
    args: (z) => z.object({ name: str(z), loginclass: str(z), root: z.string().nullable().optional() }),
    doc: `Change the default login class of the user. This function only applies to OpenBSD systems.

name: user to modify
loginclass: login class for the new account
root: directory to chroot into

CLI Example:

    salt '*' user.chloginclass foo staff`,
    run: async (ctx, a) => {
      if (ctx.grains.kernel !== 'OpenBSD') return false;
      if (a.loginclass === (await loginClass(ctx, a.name))) return true;
      const cmd = ['usermod', '-L', a.loginclass, a.name];
      if (a.root !== undefined && a.root !== null) cmd.push('-R', a.root);
      await ctx.call('cmd.run', [cmd], { python_shell: false });
      return (await loginClass(ctx, a.name)) === a.loginclass;
    },
  }),
};
