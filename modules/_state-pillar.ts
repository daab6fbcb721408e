/**
 * The pillar a state run compiles with (Salt's `State.__init__`): a minion compiles it afresh
 * for every run (`_gather_pillar`: one `_pillar` request to the master, or its own compile with
 * `file_client: local`), for the run's saltenv and pillarenv (`get_sls_opts`) with `pillar=`
 * sent along. Under salt-call the pillar it fetched at its start serves instead
 * (`_get_initial_pillar`), unless the run gives `pillar=` or another pillarenv; `state.low` and
 * `state.show_state_usage` pass Salt no initial pillar, so they always compile. The minion's
 * in-memory pillar (what `pillar.get` reads) is left as it is.
 */
import type { ExecContext, PillarAsk } from '../kernel/index.js';
import { compileLocalPillar } from './_pillar-local.js';
import { isMapping } from './_traverse.js';

/** An option of the minion config: top-level, else among the plugin options kept in `extra`. */
function option(ctx: ExecContext, name: string): unknown {
  if (ctx.opts[name] !== undefined) return ctx.opts[name];
  const extra = ctx.opts.extra;
  return isMapping(extra) ? extra[name] : undefined;
}

const given = (v: unknown): boolean => v !== undefined && v !== null;
const text = (v: unknown): string | null => (given(v) && v !== '' ? String(v) : null);

/** The run's pillarenv and saltenv as Salt's `get_sls_opts` sets them. */
export function runEnvs(
  ctx: ExecContext,
  kw: Readonly<Record<string, unknown>>,
): { saltenv: string | null; pillarenv: string | null } {
  const saltenv = given(kw.saltenv) ? String(kw.saltenv) : text(option(ctx, 'saltenv'));
  const pillarenv =
    kw.pillarenv !== undefined || option(ctx, 'pillarenv_from_saltenv') === true
      ? (text(kw.pillarenv) ?? text(kw.saltenv))
      : text(option(ctx, 'pillarenv'));
  return { saltenv, pillarenv };
}

/**
 * The pillar of one state run of `ctx` with the call's keywords `kw` (`pillar=` already
 * decrypted); `always` for the functions Salt gives no initial pillar. Throws when the master
 * cannot be asked (as Salt's run fails without its pillar).
 */
export async function runPillar(
  ctx: ExecContext,
  kw: Readonly<Record<string, unknown>>,
  always = false,
): Promise<Readonly<Record<string, unknown>>> {
  const kept = isMapping(ctx.opts.pillar) ? ctx.opts.pillar : {};
  const override = isMapping(kw.pillar) && Object.keys(kw.pillar).length > 0 ? kw.pillar : undefined;
  const { saltenv, pillarenv } = runEnvs(ctx, kw);
  const sameEnv = pillarenv === text(option(ctx, 'pillarenv'));
  if (ctx.opts.__cli === 'salt-call' && !always && !override && sameEnv) return kept;
  const ask: PillarAsk = { saltenv, pillarenv, pillarOverride: override ?? {} };
  const link = ctx.master;
  if (link?.compilePillar) return link.compilePillar(ask);
  if (option(ctx, 'file_client') === 'local') return compileLocalPillar(ctx, ask, {});
  return kept;
}
