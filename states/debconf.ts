/**
 * Salt's `debconf` state module (`salt/states/debconfmod.py`): preseed the answers to a
 * package's debconf questions — `debconf.set` (answers given in the SLS) and
 * `debconf.set_file` (a selections file, optionally a template) — through the `debconf`
 * execution module. Debian family only.
 */
import { pyStr } from '../kernel/util.js';
import { cleanKwargs } from '../modules/_invalid-kwargs.js';
import { isMapping } from '../modules/_traverse.js';
import { defineState, defineStateModule, pyOrderedStr, type StateReturn } from '../plugins/states/index.js';

const HIDDEN = '(password hidden)';

const set = defineState({
  args: (z) => z.object({ name: z.union([z.string(), z.number()]).transform(String), data: z.unknown() }),
  varkw: true,
  doc: `Set debconf selections.

name: the package to set answers for.
data: {question: {type: <type>, value: <value>}, ...}; a boolean's value is written true/false, a password's value is never shown.`,
  async run(ctx, a): Promise<StateReturn> {
    const ret: StateReturn = { name: a.name, changes: {}, result: true, comment: '' };
    if (!isMapping(a.data))
      return { ...ret, result: false, comment: 'data must be a dictionary of questions' };
    const changes: Record<string, string> = {};
    const current = (await ctx.call('debconf.show', [a.name])) as [string, string, string][] | null;
    for (const [key, raw] of Object.entries(a.data)) {
      const args = isMapping(raw) ? raw : {};
      const type = pyStr(args.type);
      const value = type === 'boolean' ? (args.value ? 'true' : 'false') : args.value;
      const shown = pyOrderedStr(value);
      if (current?.some(([q, t, v]) => q === key && t === type && v === shown)) {
        if (ret.comment === '') ret.comment = 'Unchanged answers: ';
        ret.comment += `${key} `;
      } else if (ctx.test) {
        ret.result = null;
        // Salt shows the new value here, a password too: tsalt never puts one in a return
        changes[key] = `New value: ${type === 'password' ? HIDDEN : shown}`;
      } else if (await ctx.call('debconf.set', [a.name, key, type, value])) {
        changes[key] = type === 'password' ? HIDDEN : shown;
      } else {
        ret.result = false;
        ret.comment = 'Some settings failed to be applied.';
        changes[key] = 'Failed to set!';
      }
    }
    ret.changes = changes;
    if (Object.keys(changes).length === 0) ret.comment = 'All specified answers are already set';
    return ret;
  },
});

const setFile = defineState({
  args: (z) =>
    z.object({
      name: z.union([z.string(), z.number()]).transform(String),
      source: z.string(),
      template: z.string().nullish(),
      context: z.unknown().default(null),
      defaults: z.unknown().default(null),
    }),
  varkw: true,
  doc: `Set debconf selections from a file or a template.

source: the file of package selections (salt://...).
template: render it with this engine (jinja, ...) first, with context and defaults as variables.`,
  async run(ctx, a, extra): Promise<StateReturn> {
    const ret: StateReturn = { name: a.name, changes: {}, result: true, comment: '' };
    const context = a.context ?? {};
    if (!isMapping(context)) return { ...ret, result: false, comment: 'Context must be formed as a dict' };
    const defaults = a.defaults ?? {};
    if (!isMapping(defaults)) return { ...ret, result: false, comment: 'Defaults must be formed as a dict' };
    if (ctx.test) return { ...ret, result: null, comment: 'Debconf selections would have been set.' };
    const kwargs = cleanKwargs(extra.kwargs);
    const done = a.template
      ? await ctx.call('debconf.set_template', [a.source, a.template, context, defaults], kwargs)
      : await ctx.call('debconf.set_file', [a.source], kwargs);
    return done
      ? { ...ret, comment: 'Debconf selections were set.' }
      : { ...ret, result: false, comment: 'Unable to set debconf selections from file.' };
  },
});

export default defineStateModule({
  name: 'debconf',
  doc: "Management of debconf selections: preseed the answers to Debian packages' configuration questions.",
  virtual: (ctx) =>
    ctx.grains.os_family === 'Debian' || { ok: false, reason: 'debconf state only runs on Debian systems' },
  functions: { set, set_file: setFile },
});
