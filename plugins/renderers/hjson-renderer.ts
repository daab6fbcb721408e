/**
 * The `hjson` renderer (salt/renderers/hjson.py): text → data with Hjson (quoteless strings and
 * keys, comments, optional commas), through the `hjson` package; a syntax error names the file,
 * line and column.
 */
import { createRequire } from 'node:module';
import { SALT_ERR_RENDER_SYNTAX } from './errors.js';
import { bodyAfterShebang } from './text-body.js';
import type { RendererDef } from './types.js';
import { renderError } from './where.js';

/** The part of the `hjson` package (CommonJS, untyped) the renderer uses. */
interface Hjson {
  parse(text: string): unknown;
}

let hjson: Hjson | undefined;

export const hjsonRenderer: RendererDef = {
  name: 'hjson',
  async render(input, _context, step) {
    if (typeof input !== 'string') return input;
    const body = bodyAfterShebang(input);
    if (body === undefined) return {};
    hjson ??= createRequire(import.meta.url)('hjson') as Hjson;
    try {
      return hjson.parse(body);
    } catch (err) {
      const message = (err as Error).message;
      const at = / at line (\d+),(\d+) >>>[\s\S]*$/.exec(message);
      // hjson counts lines from the first non-blank character
      const skipped = (/^\s*/.exec(body)?.[0].match(/\n/g) ?? []).length;
      throw renderError(
        SALT_ERR_RENDER_SYNTAX,
        {
          path: step.path,
          line: at ? Number(at[1]) + skipped : 0,
          column: at ? Number(at[2]) : 0,
          source: body,
          chain: step.chain,
        },
        `invalid Hjson: ${at ? message.slice(0, at.index) : message}`,
      );
    }
  },
};
