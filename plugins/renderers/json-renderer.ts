/**
 * The `json` renderer (salt/renderers/json.py): text → data with JSON; a leading `#!` line is
 * skipped (kept as a blank line so positions still match the file); empty text is `{}`.
 */
import { SALT_ERR_RENDER_SYNTAX } from './errors.js';
import type { RendererDef } from './types.js';
import { lineColumn, renderError } from './where.js';

/** JSON text → data, with the file, line and column of a syntax error. */
export function loadJson(text: string, at: { path: string; chain?: readonly string[] }): unknown {
  const body = text.startsWith('#!') ? text.replace(/^[^\n]*/, '') : text;
  if (!body.trim()) return {};
  try {
    return JSON.parse(body);
  } catch (err) {
    const message = (err as Error).message;
    const m = /position (\d+)/.exec(message);
    const pos = m ? lineColumn(body, Number(m[1])) : { line: 0, column: 0 };
    throw renderError(
      SALT_ERR_RENDER_SYNTAX,
      { ...at, ...pos, source: body },
      `invalid JSON: ${message.replace(/ in JSON at position \d+.*$/, '')}`,
    );
  }
}

export const jsonRenderer: RendererDef = {
  name: 'json',
  async render(input, _context, step) {
    if (typeof input !== 'string') return input;
    return loadJson(input, { path: step.path, chain: step.chain });
  },
};
