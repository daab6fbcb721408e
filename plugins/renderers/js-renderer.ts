/**
 * The `js` renderer, tsalt's counterpart to Salt's `#!py` (salt/renderers/py.py): the file is
 * an ES module whose default export (or `run` export) is a function of the render context
 * returning the data (or a promise of it). It is imported from its path with a query naming a
 * hash of its text, so an edited file is loaded anew and an unchanged one is not reloaded.
 */
import { createHash } from 'node:crypto';
import { isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SALT_ERR_RENDER_FAILED } from './errors.js';
import type { RendererDef } from './types.js';
import { renderError } from './where.js';

/** Line and column of the first stack frame in `file`, if any. */
function frameIn(err: unknown, file: string): { line: number; column: number } {
  const stack = String((err as Error)?.stack ?? '');
  const url = pathToFileURL(file).href;
  for (const l of stack.split('\n')) {
    const i = l.includes(url) ? l.indexOf(url) : l.indexOf(`${file}?`);
    if (i < 0) continue;
    const m = /:(\d+):(\d+)\)?\s*$/.exec(l.slice(i));
    if (m) return { line: Number(m[1]), column: Number(m[2]) };
  }
  return { line: 0, column: 0 };
}

export const jsRenderer: RendererDef = {
  name: 'js',
  async render(input, context, step) {
    const source = String(input);
    const fail = (err: unknown, what: string) =>
      renderError(
        SALT_ERR_RENDER_FAILED,
        { path: step.path, ...frameIn(err, step.path), source, chain: step.chain },
        `${what}: ${(err as Error)?.message ?? String(err)}`,
        err,
      );
    if (!isAbsolute(step.path))
      throw renderError(
        SALT_ERR_RENDER_FAILED,
        { path: step.path, line: 0, column: 0, chain: step.chain },
        'the js renderer needs the file on disk (an absolute path)',
      );
    const version = createHash('sha256').update(source).digest('hex').slice(0, 16);
    let mod: Record<string, unknown>;
    try {
      mod = (await import(`${pathToFileURL(step.path).href}?v=${version}`)) as Record<string, unknown>;
    } catch (err) {
      throw fail(err, 'cannot load the module');
    }
    const fn = typeof mod.default === 'function' ? mod.default : mod.run;
    if (typeof fn !== 'function')
      throw renderError(
        SALT_ERR_RENDER_FAILED,
        { path: step.path, line: 0, column: 0, chain: step.chain },
        'a #!js file must export a function (default export or run) of the render context',
      );
    try {
      return await (fn as (c: typeof context) => unknown)(context);
    } catch (err) {
      throw fail(err, 'the module failed');
    }
  },
};
