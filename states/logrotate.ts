/**
 * Salt's `logrotate` state module (`salt/states/logrotate.py`): `logrotate.set` sets a
 * directive (`key` `value`) or a setting inside a log file's block (`key` the block,
 * `value` the setting, `setting` its value) in a logrotate config file, through the
 * `logrotate` execution module.
 */
import { pyStr } from '../kernel/util.js';
import { pyEquals } from '../modules/_traverse.js';
import { defineState, defineStateModule, type StateReturn } from '../plugins/states/index.js';

const DEFAULT_CONF = '/etc/logrotate.conf';

/** Python's `int(str(value))` when it parses (signs, spaces and `_` groups allowed), else `value`. */
function convertIfInt(value: unknown): unknown {
  const text = typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
  if (text === undefined || !/^\s*[+-]?\d+(?:_\d+)*\s*$/.test(text)) return value;
  const n = BigInt(text.trim().replace(/_/g, ''));
  return Number.isSafeInteger(Number(n)) ? Number(n) : n;
}

export default defineStateModule({
  name: 'logrotate',
  doc: 'Management of logrotate configuration: directives and the settings of log file blocks.',
  functions: {
    set: defineState({
      args: (z) =>
        z.object({
          name: z.string(),
          key: z.string(),
          value: z.unknown(),
          setting: z.unknown().optional(),
          conf_file: z.string().default(DEFAULT_CONF),
        }),
      doc: 'Set a logrotate directive (key value), or with setting, a setting inside the block named key (value: the setting, setting: its value).',
      async run(ctx, a): Promise<StateReturn> {
        const { name, key, conf_file } = a;
        const setting = a.setting ?? null;
        const ret: StateReturn = { name, changes: {}, comment: '', result: null };
        let current: unknown;
        try {
          current =
            setting === null
              ? await ctx.call('logrotate.get', [], { key, conf_file })
              : await ctx.call('logrotate.get', [], { key, value: a.value, conf_file });
        } catch (err) {
          // Salt catches only AttributeError and KeyError here: a directive asked for a setting.
          if (!String((err as Error).message).includes('has no attribute')) throw err;
          current = false;
        }
        if (setting === null) {
          const value = convertIfInt(a.value);
          const shown = pyStr(value);
          if (pyEquals(current, value))
            return { ...ret, result: true, comment: `Command '${key}' already has value: ${shown}` };
          ret.changes = { old: current, new: value };
          if (ctx.test) return { ...ret, comment: `Command '${key}' will be set to value: ${shown}` };
          const result = await ctx.call('logrotate.set', [], { key, value, conf_file });
          return {
            ...ret,
            result: result as boolean,
            comment: result
              ? `Set command '${key}' value: ${shown}`
              : `Unable to set command '${key}' value: ${shown}`,
          };
        }
        const wanted = convertIfInt(setting);
        const block = `Block '${key}' command '${pyStr(a.value)}'`;
        const shown = pyStr(wanted);
        if (pyEquals(current, wanted))
          return { ...ret, result: true, comment: `${block} already has value: ${shown}` };
        ret.changes = { old: current, new: wanted };
        if (ctx.test) return { ...ret, comment: `${block} will be set to value: ${shown}` };
        const result = await ctx.call('logrotate.set', [], {
          key,
          value: a.value,
          setting: wanted,
          conf_file,
        });
        return {
          ...ret,
          result: result as boolean,
          comment: result
            ? `Set block '${key}' command '${pyStr(a.value)}' value: ${shown}`
            : `Unable to set block '${key}' command '${pyStr(a.value)}' value: ${shown}`,
        };
      },
    }),
  },
});
