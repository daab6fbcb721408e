/**
 * Salt's `pip.upgrade` (`salt/modules/pip.py`): `pip install -U` each package `pip.list_upgrades`
 * names, one at a time; the return is `{changes, result, comment}` with the changes the
 * difference of `pip.list` before and after, and the comment every run's stderr.
 */
import type { ExecContext } from '../kernel/index.js';
import { forgetVersion, type PipCall, runPip } from './_pip-bin.js';
import { compareDicts } from './_pkg-targets.js';

export interface UpgradeArgs extends PipCall {
  use_vt: boolean;
}

export async function pipUpgrade(ctx: ExecContext, a: UpgradeArgs): Promise<Record<string, unknown>> {
  const call = { bin_env: a.bin_env ?? null, user: a.user ?? null, cwd: a.cwd ?? null };
  const ret = { changes: {} as Record<string, unknown>, result: true, comment: '' };
  const old = (await ctx.call('pip.list', [], call)) as Record<string, unknown>;
  const upgrades = (await ctx.call('pip.list_upgrades', [], call)) as Record<string, unknown>;
  let errors = false;
  for (const pkg of Object.keys(upgrades)) {
    const r = await runPip(ctx, ['install', '-U', pkg], a, { use_vt: a.use_vt, python_shell: false });
    if (r.retcode !== 0) errors = true;
    ret.comment += r.stderr;
  }
  if (errors) ret.result = false;
  forgetVersion(ctx, a.bin_env);
  const now = (await ctx.call('pip.list', [], call)) as Record<string, unknown>;
  ret.changes = compareDicts(old, now);
  return ret;
}
