/**
 * Salt's `environ` execution module (`salt/modules/environ.py`): read and set the environment
 * of the process running the job (a job process, or the minion itself for inline jobs).
 */
import { defineFunction, defineModule, type ExecContext } from '../kernel/index.js';
import { setEnvValue, setEnvValues } from './_environ-rules.js';

/** Salt's `environ.setval` on this process's environment, logging a value it refuses. */
function setval(ctx: ExecContext, key: unknown, val: unknown, falseUnsets: unknown): unknown {
  const name = String(key);
  const ret = setEnvValue(process.env, name, val, falseUnsets === true);
  if (ret === false)
    ctx.log.debug(`environ: 'val' argument for key '${name}' is not a string or False: '${String(val)}'`);
  return ret;
}

export default defineModule({
  name: 'environ',
  doc: 'Support for getting and setting the environment variables of the current salt process.',
  functions: {
    setval: defineFunction({
      args: (z) =>
        z.object({
          key: z.unknown(),
          val: z.unknown(),
          false_unsets: z.unknown().default(false),
          permanent: z.unknown().default(false),
        }),
      doc: `Set a single salt process environment variable. Returns True on success.

key: the environment key to set. Must be a string.
val: the value to set. Must be a string or False. If False, the key is set to '' or, with
false_unsets=True, removed from the environment.

CLI Example:

    salt '*' environ.setval foo bar
    salt '*' environ.setval baz val=False false_unsets=True`,
      run: (ctx, a) => setval(ctx, a.key, a.val, a.false_unsets ?? false),
    }),
    setenv: defineFunction({
      args: (z) =>
        z.object({
          environ: z.unknown(),
          false_unsets: z.unknown().default(false),
          clear_all: z.unknown().default(false),
          update_minion: z.unknown().default(false),
          permanent: z.unknown().default(false),
        }),
      doc: `Set multiple salt process environment variables from a dict. Returns a dict.

environ: the environment keys and values to set (strings, or False to unset).
false_unsets: remove a key whose value is False instead of setting it to ''.
clear_all: unset every key not in environ.
update_minion: also fire an environ_setenv event so the minion process updates its own.

CLI Example:

    salt '*' environ.setenv '{"foo": "bar", "baz": "quux"}'`,
      run: async (ctx, a) => {
        const falseUnsets = a.false_unsets ?? false;
        const ret = setEnvValues(process.env, a.environ, falseUnsets === true, a.clear_all === true);
        if (ret === false) return false;
        if (a.update_minion === true) {
          await ctx.call('event.fire', [
            {
              environ: a.environ,
              false_unsets: falseUnsets,
              clear_all: a.clear_all ?? false,
              permanent: a.permanent ?? false,
            },
            'environ_setenv',
          ]);
        }
        return ret;
      },
    }),
    get: defineFunction({
      args: (z) => z.object({ key: z.unknown(), default: z.unknown().default('') }),
      doc: `Get a single salt process environment variable.

key: string name of the environment variable key to return the value of.
default: value to return if the key is not found ('').

CLI Example:

    salt '*' environ.get foo
    salt '*' environ.get baz default=False`,
      inline: true,
      run: (_ctx, a) => {
        if (typeof a.key !== 'string') return false;
        return process.env[a.key] ?? (a.default === undefined ? '' : a.default);
      },
    }),
    has_value: defineFunction({
      args: (z) => z.object({ key: z.unknown(), value: z.unknown().optional() }),
      doc: `Determine whether the key exists in the current salt process environment dictionary.
Optionally compare the current value of the environment against the supplied value string.

CLI Example:

    salt '*' environ.has_value foo`,
      inline: true,
      run: (_ctx, a) => {
        if (typeof a.key !== 'string') return false;
        const cur = process.env[a.key];
        if (cur === undefined) return false;
        return a.value === undefined || a.value === null ? true : cur === a.value;
      },
    }),
    item: defineFunction({
      args: (z) => z.object({ keys: z.unknown(), default: z.unknown().default('') }),
      doc: `Get one or more salt process environment variables. Returns a dict.

keys: either a string or a list of strings naming the keys to return.
default: value of a key not found ('').

CLI Example:

    salt '*' environ.item foo
    salt '*' environ.item '[foo, baz]' default=None`,
      inline: true,
      run: (_ctx, a) => {
        const keys = typeof a.keys === 'string' ? [a.keys] : Array.isArray(a.keys) ? a.keys : [];
        const fallback = a.default === undefined ? '' : a.default;
        const ret: Record<string, unknown> = {};
        for (const k of keys) ret[String(k)] = process.env[String(k)] ?? fallback;
        return ret;
      },
    }),
    items: defineFunction({
      doc: `Return a dict of the entire environment set for the salt process.

CLI Example:

    salt '*' environ.items`,
      inline: true,
      run: () => ({ ...process.env }),
    }),
  },
});
