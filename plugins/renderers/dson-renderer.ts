/**
 * The `dson` renderer (salt/renderers/dson.py). Salt's needs the Python `dogeon` package; the
 * Salt 3006.18 measured here has none, and its `dson` renderer then fails every render with
 * "module 'dson' has no attribute 'loads'". tsalt has no DSON parser either (no maintained
 * library exists), so it does what Salt does without the library: the renderer exists and every
 * render fails, naming the file and why. Empty text renders as `{}` first, as in Salt.
 */
import { SALT_ERR_RENDER_FAILED } from './errors.js';
import { bodyAfterShebang } from './text-body.js';
import type { RendererDef } from './types.js';
import { renderError } from './where.js';

export const dsonRenderer: RendererDef = {
  name: 'dson',
  async render(input, _context, step) {
    if (typeof input === 'string' && bodyAfterShebang(input) === undefined) return {};
    throw renderError(
      SALT_ERR_RENDER_FAILED,
      { path: step.path, line: 0, column: 0, chain: step.chain },
      "the dson renderer needs a DSON parser, which neither tsalt nor this Salt has (Salt: module 'dson' has no attribute 'loads')",
    );
  },
};
