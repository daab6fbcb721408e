/**
 * Salt's `keyboard` execution module (`salt/modules/keyboard.py`): the console keymap through
 * `localectl` (or, without it, the distribution's keyboard file) and the X layout through
 * `setxkbmap`. Like Salt, it reads the programs' text through `cmd.run` with a shell.
 */
import { defineFunction, defineModule, type ExecContext, SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import { pyStr } from '../kernel/util.js';
import { which } from './_which.js';

/** The file and pattern Salt greps or edits per OS family when there is no localectl. */
const FAMILY_FILES: Record<string, { file: string; key: string; grep: string }> = {
  RedHat: { file: '/etc/sysconfig/keyboard', key: 'LAYOUT', grep: 'LAYOUT' },
  Debian: { file: '/etc/default/keyboard', key: 'XKBLAYOUT', grep: 'XKBLAYOUT' },
  Gentoo: { file: '/etc/conf.d/keymaps', key: 'keymap', grep: '"^keymap"' },
};

const familyOf = (ctx: Pick<ExecContext, 'grains'>) => FAMILY_FILES[String(ctx.grains.os_family ?? '')];

/** Python's `text.split(sep)[1]`, or Salt's IndexError when `sep` is not there. */
function secondPart(text: string, sep: string): string {
  const parts = text.split(sep);
  if (parts.length < 2) throw new SALT_ERR_EXEC_COMMAND('IndexError: list index out of range');
  return parts[1]!;
}

async function getSys(ctx: ExecContext): Promise<string> {
  let cmd = '';
  const fam = familyOf(ctx);
  if (which('localectl')) cmd = 'localectl | grep Keymap | sed -e"s/: /=/" -e"s/^[ \t]*//"';
  else if (fam) cmd = `grep ${fam.grep} ${fam.file} | grep -vE "^#"`;
  const out = String(await ctx.call('cmd.run', [cmd], { python_shell: true }));
  return secondPart(out, '=').replaceAll('"', '');
}

async function setSys(ctx: ExecContext, layout: unknown): Promise<unknown> {
  const fam = familyOf(ctx);
  if (which('localectl')) await ctx.call('cmd.run', [`localectl set-keymap ${pyStr(layout)}`]);
  else if (fam) await ctx.call('file.sed', [fam.file, `^${fam.key}=.*`, `${fam.key}=${pyStr(layout)}`]);
  return layout;
}

export default defineModule({
  name: 'keyboard',
  doc: 'Manage the keyboard layout of the console (localectl or the keyboard file) and of X (setxkbmap).',
  virtual: (ctx) =>
    which('localectl') || familyOf(ctx)
      ? true
      : {
          ok: false,
          reason:
            'The keyboard exeuction module cannot be loaded: only works on Redhat, Debian or Gentoo systems or if localectl binary in path.',
        },
  functions: {
    get_sys: defineFunction({
      doc: `Get current system keyboard setting.

CLI Example:

    salt '*' keyboard.get_sys`,
      run: (ctx) => getSys(ctx),
    }),
    set_sys: defineFunction({
      args: (z) => z.object({ layout: z.unknown() }),
      doc: `Set current system keyboard setting.

CLI Example:

    salt '*' keyboard.set_sys dvorak`,
      run: (ctx, a) => setSys(ctx, a.layout),
    }),
    get_x: defineFunction({
      doc: `Get current X keyboard setting.

CLI Example:

    salt '*' keyboard.get_x`,
      run: async (ctx) =>
        secondPart(
          String(await ctx.call('cmd.run', ['setxkbmap -query | grep layout'], { python_shell: true })),
          ':',
        ).trim(),
    }),
    set_x: defineFunction({
      args: (z) => z.object({ layout: z.unknown() }),
      doc: `Set current X keyboard setting.

CLI Example:

    salt '*' keyboard.set_x dvorak`,
      run: async (ctx, a) => {
        await ctx.call('cmd.run', [`setxkbmap ${pyStr(a.layout)}`]);
        return a.layout;
      },
    }),
  },
});
