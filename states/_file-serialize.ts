/**
 * `file.serialize` (Salt's `salt/states/file.py` `serialize`): a data set written as YAML or
 * JSON with Salt's serializer options (YAML block style; JSON indented by 2 with sorted keys),
 * optionally merged into what the file already holds (`merge_if_exists`, the change then being
 * Salt's `recursive_diff`), through the same `manage_file` path as `file.managed`.
 */
import { readFile } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import { pyFloatRepr, SaltFloat } from '../kernel/util.js';
import { checkFileMeta, manageFile } from '../modules/_file-manage.js';
import { isFile, normalizeMode } from '../modules/_file-stat.js';
import { saltYamlSerialize } from '../modules/_file-yaml.js';
import { traverse } from '../modules/_traverse.js';
import { defineState } from '../plugins/states/index.js';
import { expandUser, fail, newRetSorted } from './_file-common.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof SaltFloat);

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (isObj(v))
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sortKeys(v[k])]),
    );
  return v;
}

function jsonString(s: string): string {
  return JSON.stringify(s).replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** Python's `json.dumps(indent=2, separators=(',', ': '), sort_keys=True)` (ASCII only, floats as Python writes them). */
export function pyJson(data: unknown, indent = 0): string {
  const pad = ' '.repeat(indent + 2);
  const end = ' '.repeat(indent);
  if (data instanceof SaltFloat)
    return Number.isFinite(data.value)
      ? pyFloatRepr(data.value)
      : data.value > 0
        ? 'Infinity'
        : Number.isNaN(data.value)
          ? 'NaN'
          : '-Infinity';
  if (Array.isArray(data)) {
    if (!data.length) return '[]';
    return `[\n${data.map((v) => pad + pyJson(v, indent + 2)).join(',\n')}\n${end}]`;
  }
  if (isObj(data)) {
    const keys = Object.keys(data).sort();
    if (!keys.length) return '{}';
    return `{\n${keys.map((k) => `${pad}${jsonString(k)}: ${pyJson(data[k], indent + 2)}`).join(',\n')}\n${end}}`;
  }
  if (typeof data === 'string') return jsonString(data);
  if (data === undefined || data === null) return 'null';
  return JSON.stringify(data);
}

/** Salt's `merge_recurse`: `upd` deep-merged over `base`, lists replaced. */
export function mergeRecurse(base: unknown, upd: unknown): unknown {
  if (!isObj(base) || !isObj(upd)) return upd;
  const out: Obj = { ...base };
  for (const [k, v] of Object.entries(upd)) out[k] = isObj(out[k]) && isObj(v) ? mergeRecurse(out[k], v) : v;
  return out;
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));
}

/** Salt's `RecursiveDictDiffer(old, new).diffs`. */
export function recursiveDiff(oldD: Obj, newD: Obj): Obj {
  const out: Obj = {};
  for (const k of Object.keys(newD)) {
    if (!(k in oldD)) out[k] = { new: newD[k], old: '<_null_>' };
    else if (!same(newD[k], oldD[k])) {
      if (isObj(newD[k]) && isObj(oldD[k])) {
        const sub = recursiveDiff(oldD[k] as Obj, newD[k] as Obj);
        if (Object.keys(sub).length) out[k] = sub;
      } else out[k] = { new: newD[k], old: oldD[k] };
    }
  }
  for (const k of Object.keys(oldD)) if (!(k in newD)) out[k] = { new: '<_null_>', old: oldD[k] };
  return out;
}

export const serialize = defineState({
  args: (z) =>
    z.object({
      name: z.string(),
      dataset: z.unknown().optional(),
      dataset_pillar: z.string().nullish(),
      user: z.union([z.string(), z.number()]).nullish(),
      group: z.union([z.string(), z.number()]).nullish(),
      mode: z.union([z.string(), z.number()]).nullish(),
      backup: z.union([z.string(), z.literal(false)]).nullish(),
      makedirs: z.boolean().default(false),
      show_changes: z.boolean().default(true),
      create: z.boolean().default(true),
      merge_if_exists: z.boolean().default(false),
      encoding: z.string().nullish(),
      serializer: z.string().nullish(),
      serializer_opts: z.unknown().optional(),
      deserializer_opts: z.unknown().optional(),
    }),
  varkw: true,
  doc: 'Serializes dataset and store it into managed file. Useful for sharing simple configuration files.',
  run: async (ctx, a, extra) => {
    const name = expandUser(a.name);
    let ret = newRetSorted(name);
    if (!name) return fail(ret, 'Must provide name to file.serialize');
    if (!a.create && !(await isFile(name))) {
      ret.comment = `File ${name} is not present and is not set for creation`;
      return ret;
    }
    const formatter = extra.kwargs.formatter as string | undefined;
    if (a.serializer && formatter) return fail(ret, 'Only one of serializer and formatter are allowed');
    const serializer = String(a.serializer || formatter || 'yaml').toLowerCase();
    if ([a.dataset, a.dataset_pillar].filter(Boolean).length > 1)
      return fail(ret, "Only one of 'dataset' and 'dataset_pillar' is permitted");
    let dataset = a.dataset;
    if (a.dataset_pillar) dataset = traverse(ctx.pillar, a.dataset_pillar, '', ':');
    if (dataset === undefined || dataset === null)
      return fail(ret, "Neither 'dataset' nor 'dataset_pillar' was defined");
    if (serializer !== 'json' && serializer !== 'yaml')
      return {
        ...ret,
        result: false,
        comment: `The ${serializer} serializer could not be found. It either does not exist or its prerequisites are not installed.`,
      };
    let existing: unknown;
    let merged: unknown;
    if (a.merge_if_exists && (await isFile(name))) {
      try {
        const text = await readFile(name, 'utf8');
        existing = serializer === 'json' ? JSON.parse(text) : parseYaml(text);
      } catch (err) {
        return {
          ...ret,
          result: false,
          comment: `Failed to deserialize existing data: ${(err as Error).message}`,
        };
      }
      if (existing !== null && existing !== undefined) {
        merged = mergeRecurse(existing, dataset);
        if (same(existing, merged))
          return { ...ret, result: true, comment: `The file ${name} is in the correct state` };
        dataset = merged;
      }
    } else if (a.deserializer_opts) {
      ret.warnings = ["The 'deserializer_opts' option is ignored unless merge_if_exists is set to True."];
    }
    const contents = `${serializer === 'json' ? pyJson(dataset) : saltYamlSerialize(dataset)}\n`;
    const mode = normalizeMode(a.mode);
    if (ctx.test) {
      ret.changes = await checkFileMeta(
        ctx,
        name,
        '',
        null,
        {},
        a.user,
        a.group,
        mode,
        ctx.saltenv,
        contents,
        true,
      );
      if (Object.keys(ret.changes).length) {
        ret.result = null;
        ret.comment = `Dataset will be serialized and stored into ${name}`;
        if (!a.show_changes) ret.changes.diff = '<show_changes=False>';
      } else {
        ret.result = true;
        ret.comment = `The file ${name} is in the correct state`;
      }
    } else {
      ret = await manageFile(ctx, name, ret, {
        sfn: '',
        source: null,
        sum: {},
        user: a.user,
        group: a.group,
        mode,
        saltenv: ctx.saltenv,
        backup: a.backup || '',
        makedirs: a.makedirs,
        showChanges: a.show_changes,
        contents,
        dirMode: null,
        followSymlinks: true,
        skipVerify: false,
        test: false,
      });
    }
    if (isObj(existing) && isObj(merged)) ret.changes.diff = recursiveDiff(existing, merged);
    return ret;
  },
});
