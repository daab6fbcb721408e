/**
 * Salt's `jinja` execution module (`salt/modules/jinja.py`): checks a formula's `map.jinja`
 * and the YAML/JSON files templates import, by rendering the one-line template Salt writes for
 * each through the minion's default renderer (`renderer`, `jinja|yaml`), with its grains,
 * pillar and functions, and returning the data as JSON would carry it.
 */
import { defineFunction, defineModule, type ExecContext, SALT_ERR_INVOCATION } from '../kernel/index.js';

/** Renders `template` as Salt's `compile_template_str` does and drops what JSON cannot carry. */
async function renderData(ctx: ExecContext, template: string): Promise<unknown> {
  const renderer = typeof ctx.opts.renderer === 'string' ? ctx.opts.renderer : 'jinja|yaml';
  const out = await ctx.call('slsutil.renderer', [], { string: template, default_renderer: renderer });
  return out === undefined ? null : JSON.parse(JSON.stringify(out));
}

/** A template path as a Jinja string literal. */
const quoted = (path: string): string => JSON.stringify(path);

/** The name `load_map` imports: an identifier only, so the value cannot add template code. */
function variable(value: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(value))
    throw new SALT_ERR_INVOCATION(
      `value must be the name of a variable the map sets, got ${JSON.stringify(value)}`,
    );
  return value;
}

/** `import_yaml` or `import_json`: the file's data through Salt's `{% import_* %}` tag. */
function importer(kind: 'yaml' | 'json') {
  return defineFunction({
    args: (z) => z.object({ path: z.coerce.string() }),
    doc: `Loads ${kind.toUpperCase()} data from the specified path

CLI Example:

    salt myminion jinja.import_${kind} myformula/foo.${kind}`,
    run: (ctx, { path }) =>
      renderData(ctx, `{% import_${kind} ${quoted(path)} as imported %}\n{{ imported | tojson }}\n`),
  });
}

export default defineModule({
  name: 'jinja',
  doc: 'Module for checking jinja maps and verifying the result of loading JSON/YAML files.',
  functions: {
    load_map: defineFunction({
      args: (z) => z.object({ path: z.coerce.string(), value: z.coerce.string() }),
      doc: `Loads the map at the specified path, and returns the specified value from that map.

CLI Example:

    salt myminion jinja.load_map myformula/map.jinja myformula`,
      run: (ctx, { path, value }) => {
        const name = variable(value);
        return renderData(
          ctx,
          `{% from ${quoted(path)} import ${name} with context %}\n{{ ${name} | tojson }}\n`,
        );
      },
    }),
    import_yaml: importer('yaml'),
    import_json: importer('json'),
  },
});
