/**
 * The `jinja` renderer (salt/renderers/jinja.py → salt/utils/templates.py `render_jinja_tmpl`):
 * text → text with Salt's template globals. Interim: runs on the reactor's Jinja subset until
 * the full engine lands in this folder.
 */
import { compileTemplate, TemplateError } from '../../reactor/template/index.js';
import { SALT_ERR_RENDER_FAILED } from '../errors.js';
import type { RendererDef } from '../types.js';
import { renderError } from '../where.js';

export const jinjaRenderer: RendererDef = {
  name: 'jinja',
  async render(input, context, step) {
    const source = String(input);
    try {
      return compileTemplate(source).render({
        ...context.extra,
        grains: context.grains,
        pillar: context.pillar,
        opts: context.opts,
        salt: context.salt,
        saltenv: context.saltenv,
        sls: context.sls ?? '',
        slspath: context.slspath ?? '',
        tpldir: context.tpldir ?? '',
        tplfile: context.tplfile ?? '',
      });
    } catch (err) {
      if (err instanceof TemplateError)
        throw renderError(
          SALT_ERR_RENDER_FAILED,
          { path: step.path, line: err.line, column: 0, source, chain: step.chain },
          err.message,
        );
      throw err;
    }
  },
};
