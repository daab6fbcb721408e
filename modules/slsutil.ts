/**
 * Salt's `slsutil` execution module (`salt/modules/slsutil.py`): `update`, `merge`, `merge_all`
 * (Salt's dictupdate), `renderer` (a file or string through a renderer pipeline, with the
 * minion's grains, pillar and functions), `serialize`/`deserialize`, `banner`, `boolstr`, and
 * the state tree's `file_exists`, `dir_exists`, `path_exists`, `findup`.
 */
import { readFile } from 'node:fs/promises';
import {
  defineFunction,
  defineModule,
  type ExecContext,
  SALT_ERR_EXEC_COMMAND,
  SALT_ERR_INVOCATION,
} from '../kernel/index.js';
import {
  loadYaml,
  pyJson,
  pyJsonIndent,
  pyYamlDocument,
  renderPipeline,
} from '../plugins/renderers/index.js';
import { pyFlag } from './_coerce.js';
import { fileClientOf } from './_file-client-of.js';
import { cleanKwargs } from './_invalid-kwargs.js';
import { dictMerge, dictUpdate } from './_slsutil-dictupdate.js';
import { dirExists, fileExists, findup, pathExists } from './_slsutil-paths.js';
import { banner, boolstr } from './_slsutil-text.js';
import { templateSalt } from './_template-salt.js';
import { isMapping } from './_traverse.js';

export default defineModule({
  name: 'slsutil',
  doc: 'Utility functions for use with or in SLS files.',
  functions: {
    update: defineFunction({
      args: (z) =>
        z.object({
          dest: z.unknown(),
          upd: z.unknown(),
          recursive_update: pyFlag(z, true),
          merge_lists: pyFlag(z, false),
        }),
      doc: `Merge upd recursively into dest.

If merge_lists=True, will aggregate list object types instead of replacing. This behavior is
only activated when recursive_update=True.

CLI Example:

    salt '*' slsutil.update '{foo: Foo}' '{bar: Bar}'`,
      inline: true,
      run: (_ctx, a) => dictUpdate(a.dest, a.upd, a.recursive_update, a.merge_lists),
    }),
    merge: defineFunction({
      args: (z) =>
        z.object({
          obj_a: z.unknown(),
          obj_b: z.unknown(),
          strategy: z.string().default('smart'),
          renderer: z.string().default('yaml'),
          merge_lists: pyFlag(z, false),
        }),
      doc: `Merge a data structure into another by choosing a merge strategy.

Strategies: aggregate, list, overwrite, recurse, smart.

CLI Example:

    salt '*' slsutil.merge '{foo: Foo}' '{bar: Bar}'`,
      inline: true,
      run: (_ctx, a) => dictMerge(a.obj_a, a.obj_b, a.strategy, a.renderer, a.merge_lists),
    }),
    merge_all: defineFunction({
      args: (z) =>
        z.object({
          lst: z.array(z.unknown()),
          strategy: z.string().default('smart'),
          renderer: z.string().default('yaml'),
          merge_lists: pyFlag(z, false),
        }),
      doc: `Merge a list of objects into each other in order.

CLI Example:

    salt '*' slsutil.merge_all '[{foo: Foo}, {foo: Bar}]'`,
      inline: true,
      run: (_ctx, a) => {
        let ret: Record<string, unknown> = {};
        for (const obj of a.lst) ret = dictMerge(ret, obj, a.strategy, a.renderer, a.merge_lists);
        return ret;
      },
    }),
    serialize: defineFunction({
      args: (z) => z.object({ serializer: z.string(), obj: z.unknown() }),
      varkw: true,
      doc: `Serialize a Python object using one of the available serializers (json, yaml).

CLI Example:

    salt '*' --no-parse=obj slsutil.serialize 'json' obj="{'foo': 'Foo!'}"`,
      inline: true,
      run: (_ctx, a, extra) => serialize(a.serializer, a.obj, extra.kwargs),
    }),
    deserialize: defineFunction({
      args: (z) => z.object({ serializer: z.string(), stream_or_string: z.string() }),
      varkw: true,
      doc: `Deserialize a Python object using one of the available serializers (json, yaml).

CLI Example:

    salt '*' slsutil.deserialize 'json' '{"foo": "Foo!"}'`,
      inline: true,
      run: (_ctx, a) => deserialize(a.serializer, a.stream_or_string),
    }),
    banner: defineFunction({
      args: (z) =>
        z.object({
          width: z.coerce.number().int().default(72),
          commentchar: z.string().default('#'),
          borderchar: z.string().default('#'),
          blockstart: z.string().nullish(),
          blockend: z.string().nullish(),
          title: z.string().nullish(),
          text: z.string().nullish(),
          newline: pyFlag(z, false),
        }),
      doc: `Create a standardized comment block to include in a templated file.

CLI Example:

    salt '*' slsutil.banner width=120 commentchar='//' title='Managed by Salt'`,
      inline: true,
      run: (_ctx, a) => banner(a),
    }),
    boolstr: defineFunction({
      args: (z) =>
        z.object({
          value: z.unknown(),
          true: z.unknown().default('true'),
          false: z.unknown().default('false'),
        }),
      doc: `Convert a boolean value into a string (true or false by the value's truthiness).

CLI Example:

    salt '*' slsutil.boolstr True yes no`,
      inline: true,
      run: (_ctx, a) => boolstr(a.value, a.true, a.false),
    }),
    file_exists: pathFunction(
      'Return True if a file exists in the state tree, False otherwise.',
      'file_exists',
      fileExists,
    ),
    dir_exists: pathFunction(
      'Return True if a directory exists in the state tree, False otherwise.',
      'dir_exists',
      dirExists,
    ),
    path_exists: pathFunction(
      'Return True if a path exists in the state tree, False otherwise.',
      'path_exists',
      pathExists,
    ),
    findup: defineFunction({
      args: (z) =>
        z.object({
          startpath: z.string().nullable(),
          filenames: z.unknown(),
          saltenv: z.string().default('base'),
        }),
      doc: `Find the first path matching a filename or list of filenames in a specified directory or the
nearest ancestor directory. Returns the full path to the first file found.

CLI Example:

    salt '*' slsutil.findup formulas/shared/nginx map.jinja`,
      run: (ctx, a) => findup(ctx, a.startpath, a.filenames, a.saltenv),
    }),
    renderer: defineFunction({
      varkw: true,
      args: (z) =>
        z.object({
          path: z.string().nullable().optional(),
          string: z.string().nullable().optional(),
          default_renderer: z.string().default('jinja|yaml'),
        }),
      doc: `Parse a string or file through Salt's renderer system.

path: the path to a file on Salt's fileserver (any URIs supported by cp.get_url) or on the
local file system.
string: an inline string to be used as the file to send through the renderer system.
default_renderer: the renderer pipeline to use when the file has no shebang ('jinja|yaml').
saltenv: the file server environment of path (base).

CLI Example:

    salt '*' slsutil.renderer salt://path/to/file
    salt '*' slsutil.renderer /path/to/file
    salt '*' slsutil.renderer default_renderer='jinja|json' string='{"foo": "{{ grains.id }}"}'`,
      run: async (ctx, a, extra) => {
        if (!a.path && !a.string) throw new SALT_ERR_INVOCATION('Must pass either path or string');
        if (a.path && a.string) throw new SALT_ERR_INVOCATION('Must not pass both path and string');
        const saltenv = typeof extra.kwargs.saltenv === 'string' ? extra.kwargs.saltenv : 'base';
        let source = a.string ?? '';
        let where = ':string:';
        if (a.path) {
          const local = await ctx.call('cp.get_url', [a.path], { saltenv });
          if (typeof local !== 'string' || !local) return '';
          source = await readFile(local, 'utf8');
          where = a.path;
        }
        const fc = fileClientOf(ctx);
        const pillar = isMapping(ctx.opts.pillar) ? ctx.opts.pillar : {};
        const { salt, loadFile } = templateSalt(ctx, fc);
        await salt.prepare(source);
        const out = await renderPipeline(source, {
          path: where,
          defaultPipeline: a.default_renderer,
          context: {
            grains: ctx.grains,
            pillar,
            opts: ctx.opts,
            salt,
            saltenv,
            // Salt renders it as an SLS without a name: `sls` is '', `tplfile` the file's name
            sls: '',
            tplfile: where.slice(where.lastIndexOf('/') + 1),
            extra: extra.kwargs,
            loadFile,
          },
        });
        return out;
      },
    }),
  },
});

/** Salt's json and yaml serializers (`salt/serializers/`), with the options formulas pass. */
function serialize(serializer: string, obj: unknown, kw: Readonly<Record<string, unknown>>): string {
  const opts = cleanKwargs(kw);
  if (serializer === 'json') {
    const sortKeys = opts.sort_keys === true;
    const ascii = opts.ensure_ascii === true;
    return opts.indent === undefined || opts.indent === null
      ? pyJson(obj, sortKeys, ascii)
      : pyJsonIndent(obj, opts.indent, { sortKeys, ascii });
  }
  if (serializer === 'yaml') {
    const flow = opts.default_flow_style;
    const text = pyYamlDocument(
      obj,
      flow === undefined || flow === null ? null : flow === true,
      opts.allow_unicode === true,
      true,
    );
    if (text.endsWith('\n...\n')) return text.slice(0, -5);
    return text.endsWith('\n') ? text.slice(0, -1) : text;
  }
  throw new Error(`Serializer '${serializer}' not found.`);
}

/** Salt's json and yaml deserializers. */
function deserialize(serializer: string, text: string): unknown {
  if (serializer === 'json') return JSON.parse(text);
  if (serializer === 'yaml') return loadYaml(text, { path: ':string:' });
  throw new SALT_ERR_EXEC_COMMAND(`Serializer '${serializer}' not found.`);
}

/** `file_exists`, `dir_exists` or `path_exists`: `path` in the saltenv's state tree. */
function pathFunction(
  summary: string,
  name: string,
  test: (ctx: ExecContext, path: string, saltenv: string) => Promise<boolean>,
) {
  return defineFunction({
    args: (z) => z.object({ path: z.coerce.string(), saltenv: z.string().default('base') }),
    doc: `${summary}

CLI Example:

    salt '*' slsutil.${name} nginx/defaults.yaml`,
    run: (ctx, a) => test(ctx, a.path, a.saltenv),
  });
}
