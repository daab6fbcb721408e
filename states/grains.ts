/**
 * Salt's `grains` state module (`salt/states/grains.py`): static grains in the minion's grains
 * file (`<config dir>/grains`) through the `grains` execution module — `exists`, `present`,
 * `list_present`, `list_absent`, `absent` and `append`. Names may be nested (`a:b`), with
 * `delimiter` naming another separator. A change shows in the job's grains at once and in the
 * minion's from the next job (minion/grains-view.ts re-reads the file).
 */
import { pyTruthy } from '../kernel/util.js';
import { isMapping, pyEquals, traverse } from '../modules/_traverse.js';
import {
  defineState,
  defineStateModule,
  pyOrderedStr as pyStr,
  type StateContext,
  type StateReturn,
} from '../plugins/states/index.js';

const DELIM = ':';
const MISSING = Symbol('missing');

type Z = typeof import('zod').z;
const grainName = (z: Z) => z.union([z.string(), z.number()]).transform(String);
const delimiter = (z: Z) => z.string().default(DELIM);
const named = (z: Z) => ({ name: grainName(z), delimiter: delimiter(z) });

/** Salt's `re.sub(delimiter, ':', name)`: the delimiter is a regular expression. */
function normalize(name: string, delimiter: string): string {
  return delimiter === DELIM ? name : name.replace(new RegExp(delimiter, 'g'), DELIM);
}

const get = (ctx: StateContext, name: string, fallback: unknown): unknown =>
  traverse(ctx.grains, name, fallback);
const pyIn = (v: unknown, list: readonly unknown[]): boolean => list.some((x) => pyEquals(x, v));

/** One element of Salt's `make_hashable`: Python's `frozenset(item)` (a string's characters, a mapping's keys). */
function frozen(item: unknown): string {
  if (typeof item === 'string') return JSON.stringify([...new Set(item)].sort());
  if (isMapping(item)) return JSON.stringify(Object.keys(item).sort());
  throw new TypeError(`'${item === null ? 'NoneType' : typeof item}' object is not iterable`);
}

/** Salt's `make_hashable`: nested lists flattened, each other item as a frozenset. */
function hashable(list: readonly unknown[], into = new Set<string>()): Set<string> {
  for (const item of list) {
    if (Array.isArray(item)) hashable(item, into);
    else into.add(frozen(item));
  }
  return into;
}

/** Salt's per-run `__context__['pending_grains']`: list values a `list_present` of this run queued. */
const pendingOf = new WeakMap<object, Map<string, unknown[]>>();

const ret0 = (name: string): StateReturn => ({ name, changes: {}, result: true, comment: '' });

const exists = defineState({
  args: (z) => z.object(named(z)),
  doc: 'Ensure that a grain is set (its value is not checked).',
  run(ctx, a): StateReturn {
    const name = normalize(a.name, a.delimiter);
    const missing = get(ctx, name, MISSING) === MISSING;
    return {
      name,
      changes: {},
      result: !missing,
      comment: missing ? 'Grain does not exist' : 'Grain exists',
    };
  },
});

const present = defineState({
  args: (z) =>
    z.object({
      name: grainName(z),
      value: z.unknown(),
      delimiter: delimiter(z),
      force: z.unknown().default(false),
    }),
  doc: 'Ensure that a grain is set to the value; nested names create their parents. An existing or new list or dict value is only overwritten with force=True.',
  async run(ctx, a): Promise<StateReturn> {
    const name = normalize(a.name, a.delimiter);
    const value = a.value ?? null;
    const existing = get(ctx, name, MISSING);
    if (existing !== MISSING && pyEquals(existing, value))
      return { ...ret0(name), comment: 'Grain is already set' };
    if (ctx.test) {
      return existing === MISSING
        ? { name, changes: { new: name }, result: null, comment: `Grain ${name} is set to be added` }
        : {
            name,
            changes: { changed: { [name]: value } },
            result: null,
            comment: `Grain ${name} is set to be changed`,
          };
    }
    const ret = (await ctx.call('grains.set', [name, value], { force: a.force })) as StateReturn;
    if (ret.result === true && isMapping(ret.changes) && Object.keys(ret.changes).length > 0)
      ret.comment = `Set grain ${name} to ${pyStr(value)}`;
    ret.name = name;
    return ret;
  },
});

const listPresent = defineState({
  args: (z) => z.object({ name: grainName(z), value: z.unknown(), delimiter: delimiter(z) }),
  doc: 'Ensure the value (or each value of a list) is in the list grain; a missing grain is created.',
  async run(ctx, a): Promise<StateReturn> {
    const name = normalize(a.name, a.delimiter);
    const ret = ret0(name);
    let value = a.value ?? null;
    const grain = get(ctx, name, '');
    if (pyTruthy(grain)) {
      if (!Array.isArray(grain))
        return { ...ret, result: false, comment: `Grain ${name} is not a valid list` };
      if (Array.isArray(value)) {
        const have = hashable(grain);
        if ([...hashable(value)].every((h) => have.has(h)))
          return { ...ret, comment: `Value ${pyStr(value)} is already in grain ${name}` };
        const runPending = pendingOf.get(ctx.running) ?? new Map<string, unknown[]>();
        pendingOf.set(ctx.running, runPending);
        const pending = runPending.get(name);
        if (pending && value.some((v) => pyIn(v, pending))) {
          value = value.filter((v) => !pyIn(v, pending));
          ret.comment = `Removed value ${pyStr(value)} from update due to context found in "${name}".\n`;
        }
        const queue = runPending.get(name) ?? [];
        for (const v of value as unknown[]) if (!pyIn(v, queue)) queue.push(v);
        runPending.set(name, queue);
      } else if (pyIn(value, grain)) {
        return { ...ret, comment: `Value ${pyStr(value)} is already in grain ${name}` };
      }
      if (ctx.test) {
        return {
          ...ret,
          changes: { new: grain },
          result: null,
          comment: `Value ${pyStr(value)} is set to be appended to grain ${name}`,
        };
      }
    }
    if (ctx.test)
      return { ...ret, changes: { new: grain }, result: null, comment: `Grain ${name} is set to be added` };
    const added = await ctx.call('grains.append', [name, value]);
    const now = get(ctx, name, '');
    const list = Array.isArray(now) ? now : [];
    const ok = Array.isArray(value) ? value.every((v) => pyIn(v, list)) : pyIn(value, list);
    if (!ok)
      return { ...ret, result: false, comment: `Failed append value ${pyStr(value)} to grain ${name}` };
    return { ...ret, changes: { new: added }, comment: `Append value ${pyStr(value)} to grain ${name}` };
  },
});

const listAbsent = defineState({
  args: (z) => z.object({ name: grainName(z), value: z.unknown(), delimiter: delimiter(z) }),
  doc: 'Delete the value (or each value of a list) from the list grain.',
  async run(ctx, a): Promise<StateReturn> {
    const name = normalize(a.name, a.delimiter);
    const ret = ret0(name);
    const found = get(ctx, name, null);
    if (!pyTruthy(found)) return { ...ret, comment: `Grain ${name} does not exist` };
    if (!Array.isArray(found)) return { ...ret, result: false, comment: `Grain ${name} is not a valid list` };
    let grain: readonly unknown[] = found;
    const values = Array.isArray(a.value) ? a.value : [a.value ?? null];
    const comments: string[] = [];
    const deleted: unknown[] = [];
    for (const val of values) {
      if (!pyIn(val, grain)) {
        comments.push(`Value ${pyStr(val)} is absent from grain ${name}`);
        continue;
      }
      if (ctx.test) {
        ret.result = null;
        comments.push(`Value ${pyStr(val)} in grain ${name} is set to be deleted`);
      } else {
        await ctx.call('grains.remove', [name, val]);
        comments.push(`Value ${pyStr(val)} was deleted from grain ${name}`);
        // Salt's list is the live grain, which grains.remove changed in place
        const now = get(ctx, name, null);
        grain = Array.isArray(now) ? now : [];
      }
      deleted.push(val);
    }
    if (deleted.length > 0) ret.changes = { deleted };
    ret.comment = comments.join('\n');
    return ret;
  },
});

const absent = defineState({
  args: (z) =>
    z.object({
      name: grainName(z),
      destructive: z.unknown().default(false),
      delimiter: delimiter(z),
      force: z.unknown().default(false),
    }),
  doc: 'Delete a grain from the grains file: set it to None, or remove the key with destructive=True. A list or dict value is only removed with force=True.',
  async run(ctx, a): Promise<StateReturn> {
    const name = normalize(a.name, a.delimiter);
    const destructive = a.destructive === true;
    const grain = get(ctx, name, MISSING);
    if (grain === MISSING) return { ...ret0(name), comment: `Grain ${name} does not exist` };
    if (ctx.test) {
      if (destructive)
        return {
          name,
          changes: { deleted: name },
          result: null,
          comment: `Grain ${name} is set to be deleted`,
        };
      if (grain === null) return { ...ret0(name), result: null };
      return {
        name,
        changes: { grain: name, value: null },
        result: null,
        comment: `Value for grain ${name} is set to be deleted (None)`,
      };
    }
    const ret = (await ctx.call('grains.set', [name, null], {
      destructive: a.destructive,
      force: a.force,
    })) as StateReturn;
    if (ret.result) {
      if (destructive) {
        ret.comment = `Grain ${name} was deleted`;
        ret.changes = { deleted: name };
      } else if (grain !== null) {
        ret.comment = `Value for grain ${name} was set to None`;
        ret.changes = { grain: name, value: null };
      }
    }
    ret.name = name;
    return ret;
  },
});

const append = defineState({
  args: (z) =>
    z.object({
      name: grainName(z),
      value: z.unknown(),
      convert: z.unknown().default(false),
      delimiter: delimiter(z),
    }),
  doc: 'Append a value to a list grain, which must exist; convert=True makes a non-list value a list first.',
  async run(ctx, a): Promise<StateReturn> {
    const name = normalize(a.name, a.delimiter);
    const ret = ret0(name);
    const value = a.value ?? null;
    const grain = get(ctx, name, null);
    if (!pyTruthy(grain) && !Object.hasOwn(ctx.grains, name))
      return { ...ret, result: false, comment: `Grain ${name} does not exist` };
    const shown = pyStr(value);
    if (Array.isArray(grain)) {
      if (pyIn(value, grain))
        return { ...ret, comment: `Value ${shown} is already in the list for grain ${name}` };
      if (ctx.test)
        return {
          ...ret,
          changes: { added: value },
          result: null,
          comment: `Value ${shown} in grain ${name} is set to be added`,
        };
      await ctx.call('grains.append', [name, value]);
    } else if (a.convert === true) {
      if (ctx.test) {
        return {
          ...ret,
          changes: { added: value },
          result: null,
          comment: `Grain ${name} is set to be converted to list and value ${shown} will be added`,
        };
      }
      // Salt sets the list under the whole name, nested or not
      await ctx.call('grains.setval', [name, [...(grain === null ? [] : [grain]), value]]);
    } else {
      return { ...ret, result: false, comment: `Grain ${name} is not a valid list` };
    }
    return { ...ret, changes: { added: value }, comment: `Value ${shown} was added to grain ${name}` };
  },
});

export default defineStateModule({
  name: 'grains',
  doc: "Manage grains on the minion: set, append to and delete static grains, stored in the 'grains' file next to the minion's config file. This does not override grains set in the minion config file.",
  functions: {
    // Salt's helper, which its loader exposes as a state function; it takes no `name`, so a state
    // run refuses it ("'name' is an invalid keyword argument")
    make_hashable: defineState({
      args: (z) => z.object({ list_grain: z.unknown(), result: z.unknown().optional() }),
      doc: 'Ensure that a list grain is hashable: its items as frozensets, nested lists flattened.',
      run: (_ctx, a) => [...hashable(a.list_grain as unknown[])] as unknown as StateReturn,
    }),
    exists,
    present,
    list_present: listPresent,
    list_absent: listAbsent,
    absent,
    append,
  },
});
