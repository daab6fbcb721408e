/**
 * `pillar_enc` (Salt's `salt.utils.crypt.decrypt` as `pillar.items` and the state functions call
 * it): the `pillar=` override of a call is passed through the named renderer (`gpg`) on the
 * minion, with `translate_newlines` (a literal `\n` in the ciphertext is a newline), before the
 * pillar is compiled. Only renderers listed in `decrypt_pillar_renderers` may be named. The
 * decrypted values go into the compile request like any override and are never logged.
 */
import type { ExecContext } from '../kernel/index.js';
import {
  BUILTIN_RENDERERS,
  DEFAULT_RENDER_LIMITS,
  loadYaml,
  NO_SALT_FUNCTIONS,
  type RenderStep,
} from '../plugins/renderers/index.js';
import { deepCopy, isMapping } from './_traverse.js';

function option(ctx: ExecContext, name: string): unknown {
  if (ctx.opts[name] !== undefined) return ctx.opts[name];
  const extra = ctx.opts.extra;
  return isMapping(extra) ? extra[name] : undefined;
}

/** The renderers `pillar_enc` may name (Salt's default: `gpg`). */
function validRenderers(ctx: ExecContext): string[] {
  const v = option(ctx, 'decrypt_pillar_renderers');
  if (typeof v === 'string') return [v];
  return Array.isArray(v) ? v.map(String) : ['gpg'];
}

/**
 * The override decrypted by renderer `enc`; throws Salt's messages for a renderer not allowed
 * (`'x' is not a valid decryption renderer. Valid choices are: gpg`) or not available.
 */
export async function decryptOverride(ctx: ExecContext, override: unknown, enc: string): Promise<unknown> {
  const valid = validRenderers(ctx);
  if (!valid.includes(enc)) {
    throw new Error(`'${enc}' is not a valid decryption renderer. Valid choices are: ${valid.join(', ')}`);
  }
  const renderer = BUILTIN_RENDERERS.find((r) => r.name === enc);
  if (!renderer) throw new Error(`Decryption renderer '${enc}' is not available`);
  const step: RenderStep = {
    path: 'pillar override',
    argline: 'translate_newlines',
    limits: DEFAULT_RENDER_LIMITS,
    chain: [],
    checkDeadline: () => undefined,
  };
  const pillar = isMapping(ctx.opts.pillar) ? ctx.opts.pillar : {};
  return renderer.render(
    deepCopy(override),
    { grains: ctx.grains, pillar, opts: ctx.opts, salt: NO_SALT_FUNCTIONS, saltenv: 'base' },
    step,
  );
}

/**
 * A state call's keyword arguments with `pillar=` decrypted by `pillar_enc` (Salt's
 * `State._gather_pillar`): the name is lower-cased; a failed decryption is logged and the
 * override kept as it was; a string (a whole encrypted mapping) is read as YAML; anything but a
 * mapping is logged and dropped.
 */
export async function statePillarKwargs<K extends Readonly<Record<string, unknown>>>(
  ctx: ExecContext,
  kw: K,
): Promise<K> {
  if (kw.pillar_enc === undefined || kw.pillar_enc === null || !kw.pillar) return kw;
  let pillar: unknown = kw.pillar;
  try {
    pillar = await decryptOverride(ctx, pillar, String(kw.pillar_enc).toLowerCase());
  } catch (err) {
    ctx.log.error({}, `Failed to decrypt pillar override: ${(err as Error).message}`);
  }
  if (typeof pillar === 'string') {
    try {
      pillar = loadYaml(pillar, { path: 'pillar override' });
    } catch {
      ctx.log.error({}, 'Failed to load CLI pillar override');
    }
  }
  if (!isMapping(pillar)) {
    ctx.log.error({}, 'Pillar override was not passed as a dictionary');
    pillar = undefined;
  }
  return { ...kw, pillar };
}
