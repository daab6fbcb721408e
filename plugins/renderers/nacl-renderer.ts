/**
 * The `nacl` renderer (salt/renderers/nacl.py): every string at any depth that is exactly
 * `NACL[<base64>]` (a final newline allowed) becomes `nacl.dec` of the base64, with the keys of
 * the `nacl.config` option (Salt passes no others). The execution modules the render context
 * carries do the decryption: the master's for pillar, the minion's for states. Like Salt's,
 * the value is bytes (a Buffer). A value that does not decrypt fails the render, naming the
 * file; plaintext is never logged.
 */
import { SALT_ERR_RENDER_SECRET } from './errors.js';
import { mapStrings } from './map-strings.js';
import type { RenderContext, RendererDef, RenderStep } from './types.js';
import { renderError } from './where.js';

/** Python's `re.search(r"^NACL\[(.*)\]$", s)`: `.` stops at a newline, `$` may precede a final one. */
const NACL = /^NACL\[([^\n]*)\]\n?$/;

async function decrypt(s: string, context: RenderContext, step: RenderStep): Promise<unknown> {
  const m = NACL.exec(s);
  if (!m) return s;
  step.checkDeadline();
  try {
    return await context.salt.call('nacl.dec', [m[1]], {});
  } catch (err) {
    throw renderError(
      SALT_ERR_RENDER_SECRET,
      { path: step.path, line: 0, column: 0, chain: step.chain },
      `nacl.dec failed: ${(err as Error).message}`,
    );
  }
}

export const naclRenderer: RendererDef = {
  name: 'nacl',
  render: (input, context, step) => mapStrings(input, (s) => decrypt(s, context, step)),
};
