/**
 * Salt's `locate` execution module (`salt/modules/locate.py`): search the locate database, show
 * its statistics and version, and rebuild it, through `cmd.run` as Salt does (so a missing
 * `locate`/`updatedb` program answers what `cmd.run` answers for it).
 */
import { defineFunction, defineModule } from '../kernel/index.js';
import { pyTruthy } from '../kernel/util.js';

const cli = (example: string) => `\n\nCLI Example:\n\n    salt '*' ${example}`;

/** The one-letter locate flags Salt turns on from truthy keyword arguments (in the order they were given). */
const TOGGLES: Readonly<Record<string, string>> = {
  basename: 'b',
  count: 'c',
  existing: 'e',
  follow: 'L',
  ignore: 'i',
  nofollow: 'P',
  wholename: 'w',
};

/** Python's `str.splitlines()` of cmd.run's output. */
function splitlines(s: string): string[] {
  const out = s.split(/\r\n|\r|\n/);
  if (out[out.length - 1] === '') out.pop();
  return out;
}

export default defineModule({
  name: 'locate',
  doc: 'Module for using the locate utilities.',
  virtual: () =>
    process.platform === 'win32'
      ? {
          ok: false,
          reason: 'The locate execution module cannot be loaded: only available on non-Windows systems.',
        }
      : true,
  functions: {
    version: defineFunction({
      args: (z) => z.object({}),
      doc: `Returns the version of locate (its lines).${cli('locate.version')}`,
      run: async (ctx) => splitlines(String(await ctx.call('cmd.run', ['locate -V']))),
    }),
    stats: defineFunction({
      args: (z) => z.object({}),
      doc: `Returns statistics about the locate database.${cli('locate.stats')}`,
      run: async (ctx) => {
        const ret: Record<string, string> = {};
        for (const line of splitlines(String(await ctx.call('cmd.run', ['locate -S'])))) {
          const comps = line.trim().split(/\s+/).filter(Boolean);
          if (line.startsWith('Database')) {
            ret.database = (comps[1] ?? '').replaceAll(':', '');
            continue;
          }
          ret[comps.slice(1).join(' ')] = comps[0] as string;
        }
        return ret;
      },
    }),
    updatedb: defineFunction({
      args: (z) => z.object({}),
      doc: `Updates the locate database (its output lines).${cli('locate.updatedb')}`,
      run: async (ctx) => splitlines(String(await ctx.call('cmd.run', ['updatedb']))),
    }),
    locate: defineFunction({
      args: (z) =>
        z.object({
          pattern: z.union([z.string(), z.number()]).transform(String),
          database: z.union([z.string(), z.number()]).transform(String).default(''),
          limit: z.number().default(0),
        }),
      varkw: true,
      doc: `Performs a file lookup (basename, count, existing, follow, ignore, nofollow, wholename, regex: locate's options).${cli('locate.locate pattern ignore=True')}`,
      run: async (ctx, a, extra) => {
        let options = Object.entries(extra.kwargs)
          .filter(([k, v]) => Object.hasOwn(TOGGLES, k) && pyTruthy(v))
          .map(([k]) => TOGGLES[k])
          .join('');
        if (options) options = `-${options}`;
        if (a.database) options += ` -d ${a.database}`;
        if (a.limit > 0) options += ` -l ${a.limit}`;
        if (pyTruthy(extra.kwargs.regex)) options += ' --regex';
        const out = await ctx.call('cmd.run', [`locate ${options} ${a.pattern}`], { python_shell: false });
        return splitlines(String(out));
      },
    }),
  },
});
