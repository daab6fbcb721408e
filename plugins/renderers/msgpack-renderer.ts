/**
 * The `msgpack` renderer (salt/renderers/msgpack.py): msgpack bytes → data. Salt 3006 reads SLS
 * files as UTF-8 text before any renderer runs, so a msgpack file never reaches it (a UTF-8
 * decode error) and text is no msgpack (Salt's `unpackb` wants bytes); tsalt fails the same
 * way with the file's name. Bytes given by a caller (a Buffer) are decoded.
 */
import { unpackIpc } from '../../kernel/util.js';
import { SALT_ERR_RENDER_SYNTAX } from './errors.js';
import { bodyAfterShebang } from './text-body.js';
import type { RendererDef } from './types.js';
import { renderError } from './where.js';

export const msgpackRenderer: RendererDef = {
  name: 'msgpack',
  async render(input, _context, step) {
    const at = { path: step.path, line: 0, column: 0, chain: step.chain };
    if (input instanceof Uint8Array) {
      if (input.length === 0) return {};
      try {
        return unpackIpc(Buffer.from(input));
      } catch (err) {
        throw renderError(SALT_ERR_RENDER_SYNTAX, at, `invalid msgpack data: ${(err as Error).message}`);
      }
    }
    if (typeof input !== 'string') return input;
    if (bodyAfterShebang(input) === undefined) return {};
    throw renderError(
      SALT_ERR_RENDER_SYNTAX,
      at,
      'msgpack data cannot come from an SLS file: SLS files are read as UTF-8 text (Salt 3006 fails the same way)',
    );
  },
};
