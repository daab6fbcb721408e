/**
 * Salt's `grains` execution module (`salt/modules/grains.py`): read the minion's grains, and
 * set or delete static grains, persisted in the minion's grains file (`<config dir>/grains`).
 * Grains set in the minion config's `grains` option still win over the grains file.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { defineFunction, defineModule, type ExecContext, SALT_ERR_EXEC_VALUE } from '../kernel/index.js';
import { pyStr, pyTruthy } from '../kernel/util.js';
import { pyFlag } from './_coerce.js';
import { grainsFilePath, parseGrainsYaml, writeGrainsFile } from './_grains-file.js';
import { deepCopy, filterBy, isMapping, pyEquals, traverse } from './_traverse.js';

const DELIM = ':';

const sanitizers: Readonly<Record<string, (v: unknown) => unknown>> = {
  serialnumber: (v) => {
    const s = String(v);
    const idx = Math.floor(s.length * 0.75);
    return s.slice(0, idx) + 'X'.repeat(s.length - idx);
  },
  domain: () => 'DOMAINNAME',
  fqdn: () => 'MINION.DOMAINNAME',
  id: () => 'MINION.DOMAINNAME',
  host: () => 'MINION',
  localhost: () => 'MINION',
  nodename: () => 'MINION',
};

function sanitize(out: Record<string, unknown>): Record<string, unknown> {
  for (const [key, fn] of Object.entries(sanitizers)) if (key in out) out[key] = fn(out[key]);
  return out;
}

/** A grain key as the CLI may type it (`grains.get 1`). */
const keyArg = z.union([z.string(), z.number()]).transform(String);

/** The job's grains, writable as Salt's `__grains__` (a set grain shows in this job at once). */
function liveGrains(ctx: ExecContext): Record<string, unknown> | undefined {
  const g = ctx.grains as Record<string, unknown>;
  return Object.isFrozen(g) ? undefined : g;
}

function get(ctx: ExecContext, key: string, fallback: unknown, delimiter = DELIM): unknown {
  return traverse(ctx.grains, key, fallback, delimiter);
}

/**
 * A grain value to change: the job's own value when its grains are writable (Salt changes
 * `__grains__` in place, so a state's `changes` that holds it shows later changes too), else a copy.
 */
function mine(ctx: ExecContext, key: string, fallback: unknown, delimiter: string): unknown {
  const v = get(ctx, key, fallback, delimiter);
  return liveGrains(ctx) ? v : deepCopy(v);
}

/** Salt's `setvals`: merge into the grains file, persist atomically, update this job's grains. */
function setvals(ctx: ExecContext, grains: unknown, destructive: boolean): unknown {
  if (!isMapping(grains)) throw new SALT_ERR_EXEC_VALUE('setvals grains must be a dictionary.');
  const path = grainsFilePath(ctx.opts);
  let stored: Record<string, unknown> = {};
  const text = readFileText(path);
  if (text !== undefined) {
    try {
      const data = parseGrainsYaml(text);
      stored = isMapping(data) ? data : {};
    } catch (err) {
      return `Unable to read existing grains file: ${(err as Error).message}`;
    }
  }
  const live = liveGrains(ctx);
  for (const [key, val] of Object.entries(grains)) {
    if (val === null && destructive) {
      delete stored[key];
      if (live) delete live[key];
    } else {
      stored[key] = val;
      if (live) live[key] = val;
    }
  }
  try {
    writeGrainsFile(path, stored);
  } catch (err) {
    ctx.log.error(
      { err: (err as Error).message, path },
      'Unable to write to grains file. Check permissions.',
    );
  }
  return grains;
}

function readFileText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

function setval(ctx: ExecContext, key: string, val: unknown, destructive = false): unknown {
  return setvals(ctx, { [key]: val }, destructive);
}

/** Salt's `grains.set`: a conservative setval that understands nested keys. */
function setNested(
  ctx: ExecContext,
  key: string,
  val: unknown,
  force: boolean,
  destructive: boolean,
  delimiter: string,
): { comment: string; changes: unknown; result: boolean } {
  const ret = { comment: '', changes: {} as unknown, result: true };
  const complex = (v: unknown): boolean => Array.isArray(v) || isMapping(v);
  const missing = Symbol('missing');
  const existing = get(ctx, key, missing, delimiter);
  if (existing !== missing && pyEquals(existing, val) && (val !== null || !destructive)) {
    ret.comment = 'Grain is already set';
    return ret;
  }
  let value: unknown = val;
  if (existing !== null && !force && existing !== missing) {
    if (complex(existing)) {
      return {
        ...ret,
        result: false,
        comment: `The key '${key}' exists but is a dict or a list. Use 'force=True' to overwrite.`,
      };
    }
    if (complex(val)) {
      return {
        ...ret,
        result: false,
        comment: `The key '${key}' exists and the given value is a dict or a list. Use 'force=True' to overwrite.`,
      };
    }
  }
  let k = key;
  while (k.includes(delimiter)) {
    const at = k.lastIndexOf(delimiter);
    const rest = k.slice(at + delimiter.length);
    k = k.slice(0, at);
    let parent = mine(ctx, k, {}, delimiter);
    if (isMapping(parent)) {
      if (value === null && destructive) delete parent[rest];
      else parent[rest] = value;
    } else if (Array.isArray(parent)) {
      let updated = false;
      parent.forEach((item: unknown, i: number, arr: unknown[]) => {
        if (pyEquals(item, rest)) {
          arr[i] = { [rest]: value };
          updated = true;
        } else if (isMapping(item) && rest in item) {
          item[rest] = value;
          updated = true;
        }
      });
      if (!updated) parent.push({ [rest]: value });
    } else if (pyEquals(parent, rest) || force) {
      parent = { [rest]: value };
    } else {
      return {
        ...ret,
        result: false,
        comment: `The key '${k}' value is '${pyStr(parent)}', which is different from the provided key '${rest}'. Use 'force=True' to overwrite.`,
      };
    }
    value = parent;
  }
  const out = setval(ctx, k, value, destructive);
  if (isMapping(out)) ret.changes = out;
  else return { ...ret, comment: String(out), result: false };
  return ret;
}

/** Rebuilds the top-level value for a nested `key` whose list value changed. */
function nestUp(
  ctx: ExecContext,
  key: string,
  leaf: unknown,
  delimiter: string,
  missing: () => unknown,
): [string, unknown] {
  let k = key;
  let value = leaf;
  while (k.includes(delimiter)) {
    const at = k.lastIndexOf(delimiter);
    const rest = k.slice(at + delimiter.length);
    k = k.slice(0, at);
    const parent = mine(ctx, k, missing(), delimiter);
    if (isMapping(parent)) parent[rest] = value;
    value = parent;
  }
  return [k, value];
}

const delimiterArg = z.string().default(DELIM);

export default defineModule({
  name: 'grains',
  doc: "Return/control aspects of the grains data.\n\nGrains set or altered with this module are stored in the 'grains' file on the minion (next to its config file). This does NOT override grains set in the minion config file.",
  functions: {
    items: defineFunction({
      args: z.object({ sanitize: pyFlag(z, false) }),
      outputter: 'nested',
      doc: "Return all of the minion's grains.\n\nsanitize=True replaces host names and serial numbers.",
      run: (ctx, { sanitize: clean }) => {
        const out = { ...ctx.grains };
        return clean ? sanitize(out) : out;
      },
    }),
    item: defineFunction({
      varargs: true,
      varkw: true,
      outputter: 'nested',
      doc: 'Return one or more grains.\n\nKeys may be nested with the delimiter (default ":"); missing keys get `default` (""); sanitize=True as in grains.items.',
      run: (ctx, _a, { args, kwargs }) => {
        const fallback = 'default' in kwargs ? kwargs.default : '';
        const delimiter = typeof kwargs.delimiter === 'string' ? kwargs.delimiter : DELIM;
        const out: Record<string, unknown> = {};
        for (const arg of args) out[String(arg)] = traverse(ctx.grains, String(arg), fallback, delimiter);
        return pyTruthy(kwargs.sanitize) ? sanitize(out) : out;
      },
    }),
    get: defineFunction({
      args: z.object({
        key: keyArg,
        default: z.unknown().default(''),
        delimiter: delimiterArg,
        ordered: pyFlag(z, true),
      }),
      doc: 'Return the named grain, or `default` ("") when it is not set.\n\nA nested value is named with ":" (`pkg:apache`); `delimiter` changes the separator.',
      run: (ctx, a) => get(ctx, a.key, a.default, a.delimiter),
    }),
    fetch: defineFunction({
      args: z.object({
        key: keyArg,
        default: z.unknown().default(''),
        delimiter: delimiterArg,
        ordered: pyFlag(z, true),
      }),
      doc: 'Alias of grains.get.',
      run: (ctx, a) => get(ctx, a.key, a.default, a.delimiter),
    }),
    has_value: defineFunction({
      args: z.object({ key: keyArg }),
      doc: 'Whether the named (possibly nested) grain exists.',
      run: (ctx, { key }) => {
        const missing = Symbol('missing');
        return traverse(ctx.grains, key, missing) !== missing;
      },
    }),
    ls: defineFunction({
      doc: 'Return a sorted list of all available grains.',
      run: (ctx) => Object.keys(ctx.grains).sort(),
    }),
    equals: defineFunction({
      args: z.object({ key: keyArg, value: z.unknown() }),
      doc: "Whether the grain's value, as text, equals `value` as text.",
      run: (ctx, { key, value }) => pyStr(value) === pyStr(get(ctx, key, '')),
    }),
    filter_by: defineFunction({
      args: z.object({
        lookup_dict: z.record(z.string(), z.unknown()),
        grain: keyArg.default('os_family'),
        merge: z.unknown().default(null),
        default: z.unknown().default('default'),
        base: z.unknown().default(null),
      }),
      doc: 'Look up the value of `grain` (default os_family) in `lookup_dict` (keys may be globs) and return the match, else lookup_dict[default].\n\n`base` names a lookup_dict entry the match is merged over; `merge` is a dictionary merged over the result.',
      run: (ctx, a) => filterBy(a.lookup_dict, a.grain, ctx.grains, a.merge, a.default, a.base),
    }),
    setvals: defineFunction({
      args: z.object({ grains: z.unknown(), destructive: pyFlag(z, false), refresh_pillar: pyFlag(z, true) }),
      doc: 'Set new grains values in the grains file.\n\nWith destructive=True a value of None deletes the key.',
      run: (ctx, a) => setvals(ctx, a.grains, a.destructive),
    }),
    setval: defineFunction({
      args: z.object({
        key: keyArg,
        val: z.unknown(),
        destructive: pyFlag(z, false),
        refresh_pillar: pyFlag(z, true),
      }),
      outputter: 'nested',
      doc: 'Set a grains value in the grains file.\n\nWith destructive=True a value of None deletes the key.',
      run: (ctx, a) => setval(ctx, a.key, a.val ?? null, a.destructive),
    }),
    set: defineFunction({
      args: z.object({
        key: keyArg,
        val: z.unknown().default(''),
        force: pyFlag(z, false),
        destructive: pyFlag(z, false),
        delimiter: delimiterArg,
      }),
      doc: 'Set a (possibly nested) key to a value, like setval.\n\nConservative: a list or dict is only overwritten with force=True.',
      run: (ctx, a) => setNested(ctx, a.key, a.val ?? null, a.force, a.destructive, a.delimiter),
    }),
    delval: defineFunction({
      args: z.object({ key: keyArg, destructive: pyFlag(z, false), force: pyFlag(z, false) }),
      doc: 'Delete a grain value from the grains file (set it to None); destructive=True removes the key too.',
      run: (ctx, a) => setNested(ctx, a.key, null, a.force, a.destructive, DELIM),
    }),
    delkey: defineFunction({
      args: z.object({ key: keyArg, force: pyFlag(z, false) }),
      doc: 'Remove a grain (key and value) from the grains file.',
      run: (ctx, a) => setNested(ctx, a.key, null, a.force, true, DELIM),
    }),
    append: defineFunction({
      args: z.object({ key: keyArg, val: z.unknown(), convert: pyFlag(z, false), delimiter: delimiterArg }),
      doc: 'Append a value to a list grain (created when missing).\n\nconvert=True turns a non-list value into a list first.',
      run: (ctx, { key, val, convert, delimiter }) => {
        let list = mine(ctx, key, [], delimiter);
        if (convert && !Array.isArray(list)) list = list === null ? [] : [list];
        if (!Array.isArray(list)) return `The key ${key} is not a valid list`;
        const value = val ?? null;
        if (list.some((x: unknown) => pyEquals(x, value)))
          return `The val ${pyStr(value)} was already in the list ${key}`;
        if (Array.isArray(value)) list.push(...value);
        else list.push(value);
        const [top, topValue] = nestUp(ctx, key, list, delimiter, () => ({}));
        return setval(ctx, top, topValue);
      },
    }),
    remove: defineFunction({
      args: z.object({ key: keyArg, val: z.unknown(), delimiter: delimiterArg }),
      doc: 'Remove a value from a list grain.',
      run: (ctx, { key, val, delimiter }) => {
        const list = mine(ctx, key, [], delimiter);
        if (!Array.isArray(list)) return `The key ${key} is not a valid list`;
        const value = val ?? null;
        const idx = list.findIndex((x: unknown) => pyEquals(x, value));
        if (idx < 0) return `The val ${pyStr(value)} was not in the list ${key}`;
        list.splice(idx, 1);
        const [top, topValue] = nestUp(ctx, key, list, delimiter, () => null);
        return setval(ctx, top, topValue);
      },
    }),
  },
});
