/**
 * Salt's `tuned` execution module (`salt/modules/tuned.py`): TuneD profiles through
 * `tuned-adm`. Salt reads `tuned-adm`'s text line by line as the daemon prints it; without a
 * running daemon `tuned-adm` adds a first line of its own, and Salt's parsing then fails as it
 * does here (an IndexError in `list`, an AttributeError in `active` once a profile is preset).
 */
import { defineFunction, defineModule } from '../kernel/index.js';
import { pyStr } from '../kernel/util.js';
import { pythonError } from './_py-exception.js';
import { which } from './_which.js';

/** Python's `str.splitlines()` for the line ends a program prints. */
const splitlines = (text: string): string[] => {
  const lines = text.split(/\r\n|\n|\r/);
  if (lines.at(-1) === '') lines.pop();
  return lines;
};

/** Salt's parse of `tuned-adm list`: the names between the header and the active-profile line. */
export function parseProfiles(text: string): string[] {
  let lines = splitlines(text);
  if (lines.length === 0) throw pythonError('IndexError', 'pop from empty list');
  lines.shift(); // "Available profiles:"
  const warn = lines.indexOf('** COLLECTED WARNINGS **');
  if (warn >= 0) lines = lines.slice(0, warn - 1); // Python's result[:idx - 1], negative end included
  if (lines.length === 0) throw pythonError('IndexError', 'pop from empty list');
  lines.pop(); // "Current active profile: ..."
  return lines.map((line) => {
    const part = line.split('- ')[1];
    if (part === undefined) throw pythonError('IndexError', 'list index out of range');
    return part.trim();
  });
}

/** Salt's match of `tuned-adm active`'s first line. */
export function parseActive(text: string): string {
  const m = /^Current active profile: (\w.*)/.exec(text);
  if (!m) throw pythonError('AttributeError', "'NoneType' object has no attribute 'group'");
  return m[1]!;
}

export default defineModule({
  name: 'tuned',
  doc: 'TuneD profiles through tuned-adm.',
  virtual: () =>
    which('tuned-adm')
      ? true
      : {
          ok: false,
          reason: 'The tuned execution module failed to load: the tuned-adm binary is not in the path.',
        },
  functions: {
    list: defineFunction({
      pyName: 'list_',
      doc: "List the available profiles.\n\nCLI Example:\n\n    salt '*' tuned.list",
      run: async (ctx) => parseProfiles(String(await ctx.call('cmd.run', ['tuned-adm list']))),
    }),
    active: defineFunction({
      doc: "The active profile, or 'none' when tuned-adm fails.\n\nCLI Example:\n\n    salt '*' tuned.active",
      run: async (ctx) => {
        const r = (await ctx.call('cmd.run_all', ['tuned-adm active'], { ignore_retcode: true })) as {
          retcode: number;
          stdout: string;
        };
        return r.retcode !== 0 ? 'none' : parseActive(r.stdout);
      },
    }),
    off: defineFunction({
      doc: "Turn every profile off: True, or False when tuned-adm fails.\n\nCLI Example:\n\n    salt '*' tuned.off",
      run: async (ctx) => Number(await ctx.call('cmd.retcode', ['tuned-adm off'])) === 0,
    }),
    profile: defineFunction({
      args: (z) => z.object({ profile_name: z.unknown() }),
      doc: "Switch to a profile: its name, or False when tuned-adm fails.\n\nCLI Example:\n\n    salt '*' tuned.profile virtual-guest",
      run: async (ctx, a) => {
        const name = pyStr(a.profile_name);
        const rc = Number(await ctx.call('cmd.retcode', [`tuned-adm profile ${name}`]));
        return rc === 0 ? name : false;
      },
    }),
  },
});
