/**
 * `_master_opts` (Salt's `AESFuncs._master_opts`): the master options a minion's file client
 * and state system read — the saltenvs as `file_roots` keys (with no paths), the top file and
 * renderer settings; with `env_only`, the first four only.
 */
import type { FileServerOptions } from './options.js';

export function masterOpts(
  opts: FileServerOptions,
  envs: readonly string[],
  load: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {
    file_roots: Object.fromEntries(envs.map((e) => [e, []])),
    top_file_merging_strategy: opts.top_file_merging_strategy,
    env_order: opts.env_order,
    default_top: opts.default_top,
  };
  if (load.env_only) return out;
  return {
    ...out,
    renderer: opts.renderer,
    failhard: opts.failhard,
    state_top: opts.state_top,
    state_top_saltenv: opts.state_top_saltenv,
    nodegroups: opts.nodegroups,
    state_auto_order: opts.state_auto_order,
    state_events: opts.state_events,
    state_aggregate: opts.state_aggregate,
    jinja_env: opts.jinja_env,
    jinja_sls_env: opts.jinja_sls_env,
    jinja_lstrip_blocks: opts.jinja_lstrip_blocks,
    jinja_trim_blocks: opts.jinja_trim_blocks,
  };
}
