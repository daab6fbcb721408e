/**
 * Salt's `out` execution module (`salt/modules/out.py`): data rendered by an outputter as the
 * text the CLI would print, for templates and other callers that want text
 * (`{{ salt['out.string_format'](ret, out='highstate') }}`). As Salt's `get_printout`, an
 * `output` option set in the config (other than `highstate`) wins over `out`, an unknown
 * outputter falls back to `nested`, and colour is on only with `force_color`, or on a terminal
 * without `no_color`.
 */
import { defineFunction, defineModule, type ExecContext } from '../kernel/index.js';
import { resolveOutputter } from '../outputters/index.js';

/** Salt's ANSI escape pattern in `string_format`: ESC up to the next `m`. */
const ANSI = new RegExp(`${String.fromCharCode(27)}[^m]*m`, 'g');

function render(ctx: ExecContext, data: unknown, out: string | null | undefined): string {
  const forced = ctx.opts.output;
  const name = typeof forced === 'string' && forced && forced !== 'highstate' ? forced : out;
  const color =
    ctx.opts.force_color === true || (ctx.opts.no_color !== true && process.stdout.isTTY === true);
  const indent = ctx.opts.output_indent;
  const outputter = resolveOutputter(name === 'text' ? 'txt' : name || 'nested');
  return outputter.render(data, {
    color,
    ...(typeof indent === 'number' || indent === null || indent === 'pretty' ? { indent } : {}),
  });
}

const stripped = (ctx: ExecContext, data: unknown, out: string | null | undefined) =>
  render(ctx, data, out).replace(ANSI, '');

const args = (z: typeof import('zod').z) =>
  z.object({ data: z.unknown(), out: z.string().nullish().default('nested'), opts: z.unknown().optional() });

export default defineModule({
  name: 'out',
  doc: 'Data rendered as text by an outputter (nested, json, yaml, txt, highstate, ...), for templates.',
  functions: {
    out_format: defineFunction({
      args,
      varkw: true,
      doc: `The text the outputter \`out\` (default nested) prints for \`data\`.

CLI Example:

    salt '*' out.out_format "{'key': 'value'}"`,
      run: (ctx, a) => render(ctx, a.data, a.out),
    }),
    string_format: defineFunction({
      args,
      varkw: true,
      doc: `The same as out.out_format, with ANSI colour sequences removed.

CLI Example:

    salt '*' out.string_format "{'key': 'value'}" out=json`,
      run: (ctx, a) => stripped(ctx, a.data, a.out),
    }),
    html_format: defineFunction({
      args,
      varkw: true,
      doc: `The same as out.string_format, with spaces as \`&nbsp;\` and line ends as \`<br />\`.

CLI Example:

    salt '*' out.html_format "{'key': 'value'}" out=yaml`,
      run: (ctx, a) => stripped(ctx, a.data, a.out).replaceAll(' ', '&nbsp;').replaceAll('\n', '<br />'),
    }),
  },
});
