/**
 * High data from one template outside the file server (Salt's `state.template` and
 * `state.template_str`): `State.render_template`'s checks and padding of a rendered string, and
 * `render_state(..., local=True)`'s handling of a file on the minion (no includes resolved).
 */
import { SALT_ERR_INVOCATION } from '../../../kernel/index.js';
import { pyTypeName } from '../../../kernel/util.js';
import type { HighData } from '../types.js';
import { type Dict, deepCopy, isDict } from './py.js';
import { handleExclude, handleExtend, handleIorder, handleStateDecls } from './sls-decls.js';

export interface TemplateHigh {
  high: HighData;
  errors: string[];
}

/** Salt's `State.render_template(high, name)`: shorthand padded, no include/exclude/extends. */
export function templateHigh(rendered: unknown, name: string): TemplateHigh | 'empty' {
  if (rendered === null || rendered === undefined || rendered === '' || rendered === false) return 'empty';
  if (isDict(rendered) && Object.keys(rendered).length === 0) return 'empty';
  if (!isDict(rendered)) return { high: {}, errors: [`Template ${name} does not render to a dictionary`] };
  const high: Dict = { ...rendered };
  for (const item of ['include', 'exclude', 'extends']) {
    if (item in high)
      return {
        high: high as HighData,
        errors: [`The '${item}' declaration found on '${name}' is invalid when rendering single templates`],
      };
  }
  const errors: string[] = [];
  for (const id of Object.keys(high)) {
    const body = high[id];
    if (!isDict(body)) {
      if (typeof body === 'string' && body.includes('.')) {
        const [mod, fun] = body.split('.');
        high[id] = { [mod!]: [fun] };
        continue;
      }
      if (typeof body === 'string') {
        errors.push(`ID ${id} in template ${name} is not a dictionary`);
        continue;
      }
      // Salt iterates the value: a TypeError, which salt-call reports as invalid arguments
      const type = pyTypeName(body).replace(/^<class '(.*)'>$/, '$1');
      throw new SALT_ERR_INVOCATION(`'${type}' object is not iterable`);
    }
    const decl: Dict = { ...body };
    high[id] = decl;
    const seen = new Set<string>();
    for (const key of Object.keys(decl).sort()) {
      if (key.startsWith('_')) continue;
      if (decl[key] === null) {
        errors.push(
          `ID '${id}' in template ${name} contains a short declaration (${key}) with a trailing colon. When not passing any arguments to a state, the colon must be omitted.`,
        );
        continue;
      }
      if (!Array.isArray(decl[key])) continue;
      if (key.includes('.')) {
        const [mod, fun] = key.split('.') as [string, string];
        if (seen.has(mod)) {
          errors.push(
            `ID '${id}' in template '${name}' contains multiple state declarations of the same type`,
          );
          continue;
        }
        decl[mod] = [...(decl[key] as unknown[]), fun];
        delete decl[key];
        seen.add(mod);
        continue;
      }
      seen.add(key);
    }
  }
  return { high: high as HighData, errors };
}

/** `render_state` of a file on the minion named by its path (`state.template`): its ids, numbered. */
export function localSlsHigh(
  rendered: unknown,
  path: string,
  saltenv: string,
  autoOrder: boolean,
): TemplateHigh {
  const errors: string[] = [];
  if (rendered === null || rendered === undefined || (isDict(rendered) && Object.keys(rendered).length === 0))
    return { high: {}, errors };
  if (!isDict(rendered)) return { high: {}, errors: [`SLS ${path} does not render to a dictionary`] };
  const high: Dict = deepCopy(rendered);
  delete high.include;
  handleExtend(high, path, saltenv, errors);
  handleExclude(high, path, errors);
  handleStateDecls(high, path, saltenv, errors);
  handleIorder(high, { enabled: autoOrder, next: 10000 });
  return { high: high as HighData, errors };
}
