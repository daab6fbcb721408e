/**
 * Salt's `environ` state module (`salt/states/environ.py`): `environ.setenv` sets variables of
 * the process running the job through the `environ` execution module (`update_minion` also has
 * the minion process set them). `permanent` only means something on Windows: on Linux, as in
 * Salt, it is passed on and changes nothing.
 */
import { isMapping } from '../modules/_traverse.js';
import { defineState, defineStateModule, type StateReturn } from '../plugins/states/index.js';

const setenv = defineState({
  args: (z) =>
    z.object({
      name: z.union([z.string(), z.number()]).transform(String),
      value: z.unknown(),
      false_unsets: z.unknown().default(false),
      clear_all: z.unknown().default(false),
      update_minion: z.unknown().default(false),
      permanent: z.unknown().default(false),
    }),
  doc: `Set the salt process environment variables.

value: a string (or False) for the variable named by name, or a dict of variables to set.
false_unsets: a False value removes the variable (else it is set to '').
clear_all: unset every variable not in value (use with caution).
update_minion: also set them in the salt-minion process.
permanent: Windows only (the registry); ignored elsewhere.`,
  async run(ctx, a): Promise<StateReturn> {
    const ret: StateReturn = { name: a.name, changes: {}, result: true, comment: '' };
    const changes: Record<string, unknown> = {};
    let environ: Record<string, unknown>;
    if (typeof a.value === 'string' || a.value === false) environ = { [a.name]: a.value };
    else if (isMapping(a.value)) environ = a.value;
    else return { ...ret, result: false, comment: 'Environ value must be string, dict or False' };
    const unsets = a.false_unsets === true;
    if (a.clear_all === true) {
      for (const key of Object.keys(process.env))
        if (!Object.hasOwn(environ, key)) changes[key] = unsets ? null : '';
    }
    const current = { ...process.env };
    for (const [key, val] of Object.entries(environ)) {
      const now = current[key];
      if (val === false) {
        if (now === undefined) {
          if (!unsets) changes[key] = '';
        } else if (unsets) changes[key] = null;
        else if (now !== '') changes[key] = '';
      } else if ((now ?? '') !== val) changes[key] = val;
    }
    ret.changes = changes;
    const changing = Object.keys(changes).length > 0;
    if (ctx.test) {
      ret.comment = changing
        ? 'Environ values will be changed'
        : 'Environ values are already set with the correct values';
      return ret;
    }
    if (!changing) return { ...ret, comment: 'Environ values were already set with the correct values' };
    const done = await ctx.call('environ.setenv', [
      environ,
      a.false_unsets,
      a.clear_all,
      a.update_minion,
      a.permanent,
    ]);
    if (!isMapping(done) || Object.keys(done).length === 0)
      return { ...ret, result: false, comment: 'Failed to set environ variables' };
    return { ...ret, changes: done, comment: 'Environ values were set' };
  },
});

export default defineStateModule({
  name: 'environ',
  doc: 'Support for getting and setting the environment variables of the current salt process.',
  functions: { setenv },
});
