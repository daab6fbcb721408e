/**
 * Salt's `highstate_doc` execution module (`salt/modules/highstate_doc.py`): renders the
 * minion's highstate (its low chunks, `state.show_lowstate`) into a Markdown document through a
 * Jinja template, each chunk described by a processor (`highstate_doc.processor_markdown` unless
 * `highstate_doc.config` or a keyword names another). Options: `filter_id_regex` and
 * `filter_function_regex` leave chunks out (ids ending `!doc_skip` by default),
 * `replace_text_regex` rewrites the rendered text (to hide secrets).
 *
 * Salt 3006's `processor_markdown` ends by calling `.decode` on a str, so it raises
 * `AttributeError` for every chunk, and `render`/`process_lowstates` fail wherever one chunk is
 * left after the filters; tsalt answers the same, after the same checks Salt makes on the way
 * (`_highstate-doc-markdown.ts`). A highstate with nothing left renders the template alone.
 */
import { readFile } from 'node:fs/promises';
import { defineFunction, defineModule, type ExecContext } from '../kernel/index.js';
import { isDict, pyReMatch, pyStr } from '../kernel/util.js';
import { fileClientOf } from './_file-client-of.js';
import { pyRegex, pyRepl } from './_file-edit.js';
import { renderText } from './_file-template.js';
import { processorMarkdown } from './_highstate-doc-markdown.js';
import { BASIC_TEMPLATE, DEFAULT_TEMPLATE, FULL_TEMPLATE } from './_highstate-doc-templates.js';
import { pythonError } from './_py-exception.js';

type Dict = Record<string, unknown>;

const cli = (example: string) => `\n\nCLI Example:\n\n    salt '*' highstate_doc.${example}`;

/** Salt's `_get_config`: defaults, then `highstate_doc.config`, then the call's keywords of the same names. */
async function docConfig(ctx: ExecContext, kwargs: Dict): Promise<Dict> {
  const config: Dict = {
    filter_id_regex: ['.*!doc_skip'],
    filter_function_regex: [],
    replace_text_regex: {},
    processor: 'highstate_doc.processor_markdown',
    max_render_file_size: 10000,
    note: null,
  };
  const configured = await ctx.call('config.get', ['highstate_doc.config', {}]);
  if (isDict(configured)) Object.assign(config, configured);
  for (const key of Object.keys(config)) if (key in kwargs) config[key] = kwargs[key];
  return config;
}

const patterns = (v: unknown): string[] => (Array.isArray(v) ? v.map((p) => pyStr(p)) : []);

/** Salt's `_blacklist_filter`: whether a chunk's `state.fun` or id matches a filter. */
function filteredOut(chunk: Dict, config: Dict): boolean {
  const stateFunction = `${pyStr(chunk.state)}.${pyStr(chunk.fun)}`;
  return (
    patterns(config.filter_function_regex).some((p) => pyReMatch(p, stateFunction)) ||
    patterns(config.filter_id_regex).some((p) => pyReMatch(p, pyStr(chunk.__id__)))
  );
}

const LOWSTATE_ERROR = 'ERROR: to see details run: [salt-call state.show_lowstate] <-----***-SEE-***';

/** Salt's `process_lowstates`: each chunk the filters keep, through the configured processor. */
async function processLowstates(ctx: ExecContext, kwargs: Dict, config?: Dict): Promise<unknown[]> {
  const conf = config ?? (await docConfig(ctx, kwargs));
  const ls = await ctx.call('state.show_lowstate', []);
  if (!Array.isArray(ls) || (ls.length > 0 && !isDict(ls[0]))) throw pythonError('Exception', LOWSTATE_ERROR);
  const out: unknown[] = [];
  for (const chunk of ls) {
    if (filteredOut(chunk as Dict, conf)) continue;
    out.push(await ctx.call(pyStr(conf.processor), [chunk, conf], kwargs));
  }
  return out;
}

async function render(ctx: ExecContext, text: unknown, fn: unknown, kwargs: Dict): Promise<string> {
  const config = await docConfig(ctx, kwargs);
  const lowstates = await processLowstates(ctx, kwargs, config);
  let template = text;
  if ((template === null || template === undefined) && fn) template = await ctx.call(pyStr(fn), [], kwargs);
  if (template === null || template === undefined) throw pythonError('Exception', 'No jinja template text');
  let txt = await renderText(ctx, fileClientOf(ctx), 'jinja', pyStr(template), '<template>', 'base', {
    saltenv: null,
    config,
    lowstates,
    kwargs,
  });
  const replace = config.replace_text_regex;
  if (isDict(replace))
    for (const [pattern, repl] of Object.entries(replace))
      txt = txt.replace(pyRegex(pattern, 'g'), pyRepl(pyStr(repl)));
  return txt;
}

const template = (text: string, what: string) =>
  defineFunction({
    varkw: true,
    doc: `The Jinja text of the ${what} Markdown template, for render's jinja_template_function.${cli(`markdown_${what}_jinja_template`)}`,
    run: () => text,
  });

export default defineModule({
  name: 'highstate_doc',
  doc: "Render the minion's highstate as a Markdown document.",
  functions: {
    markdown_basic_jinja_template: template(BASIC_TEMPLATE, 'basic'),
    markdown_default_jinja_template: template(DEFAULT_TEMPLATE, 'default'),
    markdown_full_jinja_template: template(FULL_TEMPLATE, 'full'),
    read_file: defineFunction({
      args: (z) => z.object({ name: z.unknown() }),
      doc: `The text of a file on the minion, or None when it cannot be read (a way to fetch a rendered document).${cli('read_file /root/README.md')}`,
      run: async (ctx, a) => {
        try {
          // Python's text mode: strict UTF-8, universal newlines
          const text = new TextDecoder('utf-8', { fatal: true }).decode(await readFile(pyStr(a.name)));
          return text.replace(/\r\n?/g, '\n');
        } catch (err) {
          ctx.log.error(String(err));
          return null;
        }
      },
    }),
    render: defineFunction({
      args: (z) =>
        z.object({
          jinja_template_text: z.unknown().default(null),
          jinja_template_function: z.unknown().default('highstate_doc.markdown_default_jinja_template'),
        }),
      varkw: true,
      doc: `Render the highstate to text (Markdown by default) with jinja_template_text, else the template jinja_template_function returns.${cli('render')}`,
      run: (ctx, a, extra) => render(ctx, a.jinja_template_text, a.jinja_template_function, extra.kwargs),
    }),
    process_lowstates: defineFunction({
      varkw: true,
      doc: `The highstate's low chunks the filters keep, each as the processor describes it.${cli('process_lowstates')}`,
      run: (ctx, _a, extra) => processLowstates(ctx, extra.kwargs),
    }),
    processor_markdown: defineFunction({
      args: (z) => z.object({ lowstate_item: z.unknown(), config: z.unknown() }),
      varkw: true,
      doc: 'Describe one low chunk for the Markdown templates: id, state function, name, requisites and details.',
      run: (ctx, a) => processorMarkdown(ctx, a.lowstate_item, a.config),
    }),
  },
});
