/**
 * Template rendering for `cp` (Salt's `salt.utils.templates.TEMPLATE_REGISTRY` as
 * `cp.get_template` and `_render_filenames` use it): one engine (`jinja`, `yaml`, `json`, or a
 * plugin's) over a text, with the minion's grains, pillar, opts, `salt[...]` and `salt://`
 * imports through the file client. Render errors keep the renderers' codes and locations.
 */

import type { ExecContext } from '../kernel/index.js';
import { BUILTIN_RENDERERS, DEFAULT_RENDER_LIMITS, type RenderContext } from '../plugins/renderers/index.js';
import { callWithPillar } from './_call-with-pillar.js';
import type { FileClient } from './_file-client.js';
import { SALT_ERR_FILE_CLIENT } from './_file-client.js';
import { templateSalt } from './_template-salt.js';

/** Whether `template` names an engine this minion has. */
export function hasEngine(template: string): boolean {
  return BUILTIN_RENDERERS.some((r) => r.name === template);
}

/**
 * The pillar a template sees: a state run's own (`ctx.pillar` of a StateContext, which carries a
 * `pillar=` override of `state.apply`, as Salt's `__pillar__` does), else the minion's.
 */
async function pillarOf(ctx: ExecContext & { readonly pillar?: unknown }): Promise<Record<string, unknown>> {
  const own = ctx.pillar;
  if (own && typeof own === 'object' && !Array.isArray(own)) return own as Record<string, unknown>;
  try {
    const p = await ctx.call('pillar.items');
    return p && typeof p === 'object' ? (p as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Renders `text` (from `path`) with engine `template`; the rendered text. */
export async function renderText(
  ctx: ExecContext,
  fc: FileClient,
  template: string,
  text: string,
  path: string,
  saltenv: string,
  extra: Readonly<Record<string, unknown>> = {},
): Promise<string> {
  const def = BUILTIN_RENDERERS.find((r) => r.name === template);
  if (!def)
    throw new SALT_ERR_FILE_CLIENT(`Attempted to render file paths with unavailable engine ${template}`);
  const pillar = await pillarOf(ctx);
  const { salt, loadFile } = templateSalt(ctx, fc, callWithPillar(ctx, pillar));
  await salt.prepare(text);
  const context: RenderContext = {
    grains: ctx.grains,
    pillar,
    opts: ctx.opts,
    salt,
    saltenv,
    extra,
    loadFile,
  };
  const started = Date.now();
  const out = await def.render(text, context, {
    path,
    argline: '',
    limits: DEFAULT_RENDER_LIMITS,
    chain: [],
    checkDeadline: () => {
      if (Date.now() - started > DEFAULT_RENDER_LIMITS.timeoutMs) {
        throw new SALT_ERR_FILE_CLIENT(
          `rendering ${path} took longer than ${DEFAULT_RENDER_LIMITS.timeoutMs} ms`,
        );
      }
    },
  });
  return typeof out === 'string' ? out : JSON.stringify(out);
}
