/**
 * The `json5` renderer (salt/renderers/json5.py): text → data with JSON5 (comments, trailing
 * commas, unquoted keys, single quotes), through the `json5` package; a syntax error names the
 * file, line and column.
 */
import JSON5 from 'json5';
import { SALT_ERR_RENDER_SYNTAX } from './errors.js';
import { bodyAfterShebang } from './text-body.js';
import type { RendererDef } from './types.js';
import { renderError } from './where.js';

interface Json5Error {
  readonly message: string;
  readonly lineNumber?: number;
  readonly columnNumber?: number;
}

export const json5Renderer: RendererDef = {
  name: 'json5',
  async render(input, _context, step) {
    if (typeof input !== 'string') return input;
    const body = bodyAfterShebang(input);
    if (body === undefined) return {};
    try {
      return JSON5.parse(body);
    } catch (err) {
      const e = err as Json5Error;
      throw renderError(
        SALT_ERR_RENDER_SYNTAX,
        {
          path: step.path,
          line: e.lineNumber ?? 0,
          column: e.columnNumber ?? 0,
          source: body,
          chain: step.chain,
        },
        `invalid JSON5: ${e.message.replace(/^JSON5: /, '').replace(/ at \d+:\d+$/, '')}`,
      );
    }
  },
};
