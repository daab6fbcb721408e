/**
 * The `toml` renderer (salt/renderers/tomlmod.py): text → data with TOML, through `smol-toml`;
 * an empty document is `{}`; dates and times become ISO strings; a syntax error names the file,
 * line and column.
 */
import { parse, TomlDate, TomlError } from 'smol-toml';
import { SALT_ERR_RENDER_SYNTAX } from './errors.js';
import type { RendererDef } from './types.js';
import { renderError } from './where.js';

/** TOML's date-times as text (what Salt's JSON and YAML outputs show for a datetime). */
function plain(v: unknown): unknown {
  if (v instanceof TomlDate) return v.toISOString();
  if (Array.isArray(v)) return v.map(plain);
  if (typeof v === 'object' && v !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = plain(x);
    return out;
  }
  return v;
}

export const tomlRenderer: RendererDef = {
  name: 'toml',
  async render(input, _context, step) {
    if (typeof input !== 'string') return input;
    try {
      return plain(parse(input));
    } catch (err) {
      if (!(err instanceof TomlError)) throw err;
      const message = err.message.split('\n')[0]?.replace(/^Invalid TOML document: /, '') ?? '';
      throw renderError(
        SALT_ERR_RENDER_SYNTAX,
        { path: step.path, line: err.line, column: err.column, source: input, chain: step.chain },
        `invalid TOML: ${message}`,
      );
    }
  },
};
