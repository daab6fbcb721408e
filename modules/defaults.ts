/**
 * Salt's `defaults` execution module (`salt/modules/defaults.py`): a formula's
 * `defaults.yaml`/`defaults.json` from the file server, and the merge helpers formulas use to
 * lay pillar values over them.
 */
import { readFile } from 'node:fs/promises';
import { defineFunction, defineModule, type ExecContext } from '../kernel/index.js';
import { parseSaltYaml } from '../kernel/util.js';
import { pyFlag } from './_coerce.js';
import { fileClientOf } from './_file-client-of.js';
import { dictUpdate } from './_slsutil-dictupdate.js';
import { deepCopy, isMapping, traverse } from './_traverse.js';

/** Salt's `_load`: `salt://<formula>/defaults.yaml`, else `.json`; undefined when neither exists. */
async function loadDefaults(ctx: ExecContext, formula: string): Promise<unknown> {
  const fc = fileClientOf(ctx);
  for (const ext of ['yaml', 'json']) {
    const got = await fc.cacheFile(`salt://${formula}/defaults.${ext}`, 'base');
    if (!got) continue;
    const text = await readFile(got, 'utf8');
    const data: unknown = ext === 'yaml' ? await parseSaltYaml(text) : JSON.parse(text);
    ctx.log.debug({ file: got }, 'Read defaults');
    return pyEmpty(data) ? {} : data;
  }
  return null;
}

function pyEmpty(v: unknown): boolean {
  if (v === null || v === undefined || v === false || v === 0 || v === '') return true;
  if (Array.isArray(v)) return v.length === 0;
  return isMapping(v) && Object.keys(v).length === 0;
}

/** Salt's `defaults.merge`: `src` laid over `dest` (in place, or over a deep copy). */
function merge(dest: unknown, src: unknown, mergeLists: boolean, inPlace: boolean, convertNone: boolean) {
  const from = src === null && convertNone ? {} : src;
  let into = dest;
  if (into === null && convertNone) {
    if (inPlace) throw new TypeError("Can't perform in-place merge into NoneType");
    into = {};
  }
  return dictUpdate(inPlace ? into : deepCopy(into), from, true, mergeLists);
}

export default defineModule({
  name: 'defaults',
  doc: 'Module to work with salt formula defaults files.',
  functions: {
    get: defineFunction({
      args: (z) =>
        z.object({
          key: z.union([z.string(), z.number()]).transform(String),
          default: z.unknown().default(''),
        }),
      doc: `defaults.get is used much like pillar.get except that it will read a default value for
a pillar from defaults.json or defaults.yaml files that are stored in the root of a salt formula.

CLI Example:

    salt '*' defaults.get core:users:root

The defaults is computed from pillar key. The first entry is considered as the formula
namespace. For example, querying core:users:root will try to load salt://core/defaults.yaml
and salt://core/defaults.json.`,
      run: async (ctx, a) => {
        const at = a.key.indexOf(':');
        const namespace = at === -1 ? a.key : a.key.slice(0, at);
        const key = at === -1 ? '' : a.key.slice(at + 1);
        const defaults = await loadDefaults(ctx, namespace);
        return key ? traverse(defaults, key, a.default) : defaults;
      },
    }),
    merge: defineFunction({
      args: (z) =>
        z.object({
          dest: z.unknown(),
          src: z.unknown(),
          merge_lists: pyFlag(z, false),
          in_place: pyFlag(z, true),
          convert_none: pyFlag(z, true),
        }),
      doc: `defaults.merge: allows deep merging of dicts in formulas.

merge_lists: if True, it will also merge lists instead of replace their items.
in_place: if True, it will merge into dest dict, if not it will make a new copy from that dict
and return it.
convert_none: if True, it will convert src and dest to empty dicts if they are None.

CLI Example:

    salt '*' defaults.merge '{a: b}' '{d: e}'

It is more typical to use this in a templating language in formulas, instead of directly on
the command-line.`,
      inline: true,
      run: (_ctx, a) => merge(a.dest, a.src, a.merge_lists, a.in_place, a.convert_none),
    }),
    deepcopy: defineFunction({
      args: (z) => z.object({ source: z.unknown() }),
      doc: `defaults.deepcopy: allows deep copy of objects in formulas.

By default, Python does not copy objects, it creates bindings between a target and an object.

It is more typical to use this in a templating language in formulas, instead of directly on
the command-line.`,
      inline: true,
      run: (_ctx, a) => deepCopy(a.source),
    }),
    update: defineFunction({
      args: (z) =>
        z.object({
          dest: z.unknown(),
          defaults: z.unknown(),
          merge_lists: pyFlag(z, true),
          in_place: pyFlag(z, true),
          convert_none: pyFlag(z, true),
        }),
      doc: `defaults.update: allows setting defaults for group of data set e.g. group for nodes.

This function is a combination of defaults.merge and defaults.deepcopy to avoid redundant in
jinja: every value of dest is laid over a copy of defaults.

merge_lists: if True, it will also merge lists instead of replace their items.
in_place: if True, it will merge into dest dict, if not it will make a new copy from that dict
and return it.
convert_none: if True, it will convert src and dest to empty dicts if they are None.

It is more typical to use this in a templating language in formulas, instead of directly on
the command-line.`,
      inline: true,
      run: (_ctx, a) => {
        let nodes: unknown;
        if (a.in_place) {
          if (a.dest === null) throw new TypeError("Can't perform in-place update into NoneType");
          nodes = a.dest;
        } else nodes = deepCopy(a.dest === null && a.convert_none ? {} : a.dest);
        const defaults = a.defaults === null && a.convert_none ? {} : a.defaults;
        if (!isMapping(nodes)) throw new TypeError(`'${typeof nodes}' object has no attribute 'items'`);
        for (const [name, vars] of Object.entries(nodes)) {
          nodes[name] = merge(deepCopy(defaults), vars, a.merge_lists, true, a.convert_none);
        }
        return nodes;
      },
    }),
  },
});
