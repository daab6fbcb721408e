/**
 * Salt's `pkgrepo` state module (`salt/states/pkgrepo.py`) for apt's one-line sources:
 * `managed` adds or changes a repo line through `pkg.mod_repo`, comparing what is there with
 * the line Salt would write (its `_expand_repo_def`), and `absent` deletes it with
 * `pkg.del_repo` (and its key with `keyid`). Keys (`keyid` + `keyserver`, `key_url`,
 * `key_text`, `aptkey`) reach `pkg.mod_repo`; PPAs and yum/zypper repos are not handled yet.
 */

import { pyTruthy } from '../kernel/util.js';
import { useAptKey } from '../modules/_pkg-apt-keys.js';
import {
  defineState,
  defineStateModule,
  type StateContext,
  type StateReturn,
} from '../plugins/states/index.js';
import { expandRepoDef, type RepoView, sameRepo } from './_pkg-repo-def.js';

/** Salt's checks on the key arguments: the message for two that cannot go together. */
function keyConflict(kw: Readonly<Record<string, unknown>>): string | undefined {
  const byId = 'keyid' in kw || 'keyserver' in kw;
  let msg: string | undefined;
  if ('key_url' in kw && byId) msg = 'You may not use both "keyid"/"keyserver" and "key_url" argument.';
  if ('key_text' in kw && byId) msg = 'You may not use both "keyid"/"keyserver" and "key_text" argument.';
  if ('key_text' in kw && 'key_url' in kw) msg = 'You may not use both "key_url" and "key_text" argument.';
  return msg;
}

/** Keywords of the state system that never reach `pkg.mod_repo` (Salt's `_STATE_INTERNAL_KEYWORDS`, the common ones). */
const INTERNAL = new Set([
  'names',
  'require',
  'require_in',
  'watch',
  'watch_in',
  'onchanges',
  'onchanges_in',
  'onfail',
  'onfail_in',
  'prereq',
  'prereq_in',
  'use',
  'use_in',
  'order',
  'fun',
  'state',
  'check_cmd',
  'failhard',
  'onlyif',
  'unless',
  'creates',
  'reload_modules',
  'reload_grains',
  'reload_pillar',
  'runas',
  'runas_password',
  'fire_event',
  'saltenv',
  '__id__',
  '__sls__',
  '__env__',
  '__pub_jid',
  '__pub_fun',
  '__pub_user',
  '__pub_tgt',
  '__pub_tgt_type',
  '__pub_ret',
  '__pub_arg',
  '__pub_pid',
  '__pub_session',
  'parallel',
  'retry',
  'listen',
  'listen_in',
]);

async function managed(ctx: StateContext, name: string, raw: Record<string, unknown>): Promise<StateReturn> {
  const ret: StateReturn = { name, changes: {}, result: null, comment: '' };
  const kwargs: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(raw)) if (!INTERNAL.has(k)) kwargs[k] = v;
  const aptkey = useAptKey(pyTruthy(kwargs.aptkey ?? true));
  delete kwargs.aptkey;
  delete kwargs.ppa;
  // Salt flags these conflicts but goes on (its checks do not return)
  const conflict = keyConflict(kwargs);
  if (conflict) Object.assign(ret, { result: false, comment: conflict });
  if ('repo' in kwargs)
    return {
      ...ret,
      result: false,
      comment:
        "'repo' is not a supported argument for this state. The 'name' argument is probably what was intended.",
    };
  if ('enabled' in kwargs && 'disabled' in kwargs)
    return { ...ret, result: false, comment: 'Only one of enabled/disabled is allowed' };
  delete kwargs.enabled;
  delete kwargs.disabled;
  const insecure = pyTruthy(kwargs.allow_insecure_key ?? true);
  delete kwargs.allow_insecure_key;
  if (typeof kwargs.key_url === 'string' && kwargs.key_url.trim().startsWith('http:') && !insecure)
    return {
      ...ret,
      result: false,
      comment: "Cannot have 'key_url' using http with 'allow_insecure_key' set to True",
    };
  let pre: RepoView;
  try {
    pre = (await ctx.call('pkg.get_repo', [name])) as RepoView;
  } catch (err) {
    if ((err as { code?: string }).code === 'SALT_ERR_LOADER_NOT_AVAILABLE')
      return { ...ret, result: false, comment: 'Repo management not implemented on this platform' };
    return { ...ret, result: false, comment: `Failed to examine repo '${name}': ${(err as Error).message}` };
  }
  const all = (await ctx.call('pkg.list_repos', [])) as Record<string, RepoView[]>;
  const sanitized = expandRepoDef(name, kwargs, Object.values(all).flat());
  if (Object.keys(pre).length && sameRepo(sanitized, pre, kwargs))
    return { ...ret, result: true, comment: `Package repo '${name}' already configured` };
  const keys = Object.keys(sanitized).filter((k) => k !== 'file');
  if (ctx.test) {
    ret.comment = `Package repo '${name}' would be configured. This may cause pkg states to behave differently than stated if this action is repeated without test=True, due to the differences in the configured repositories.`;
    if (Object.keys(pre).length) {
      for (const k of keys)
        if (JSON.stringify(sanitized[k]) !== JSON.stringify(pre[k]))
          ret.changes[k] = { new: sanitized[k], old: pre[k] };
    } else ret.changes.repo = name;
    return ret;
  }
  try {
    await ctx.call('pkg.mod_repo', [name], { ...kwargs, saltenv: ctx.saltenv, aptkey });
  } catch (err) {
    return {
      ...ret,
      result: false,
      comment: `Failed to configure repo '${name}': ${(err as Error).message}`,
    };
  }
  try {
    const post = (await ctx.call('pkg.get_repo', [name])) as RepoView;
    if (Object.keys(pre).length) {
      for (const k of keys)
        if (JSON.stringify(post[k]) !== JSON.stringify(pre[k]))
          ret.changes[k] = { new: post[k], old: pre[k] };
    } else ret.changes = { repo: name };
    ret.result = true;
    ret.comment = `Configured package repo '${name}'`;
  } catch (err) {
    ret.result = false;
    ret.comment = `Failed to confirm config of repo '${name}': ${(err as Error).message}`;
  }
  return ret;
}

/** Salt's `strip_uri`: a trailing `/` dropped from http(s)/ftp URIs. */
const stripUri = (repo: string): string =>
  repo
    .split(/\s+/)
    .map((w) => (/^(https?|ftp):\/\//.test(w) ? w.replace(/\/+$/, '') : w))
    .join(' ');

async function absent(ctx: StateContext, name: string, raw: Record<string, unknown>): Promise<StateReturn> {
  const ret: StateReturn = { name, changes: {}, result: null, comment: '' };
  const kwargs: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(raw)) if (!INTERNAL.has(k)) kwargs[k] = v;
  const removeKey = ['keyid', 'keyid_ppa'].some((k) => kwargs[k] !== undefined && kwargs[k] !== null);
  const stripped = stripUri(name);
  let repo: RepoView;
  try {
    repo = (await ctx.call('pkg.get_repo', [stripped])) as RepoView;
  } catch (err) {
    return {
      ...ret,
      result: false,
      comment: `Failed to configure repo '${name}': ${(err as Error).message}`,
    };
  }
  if (Object.keys(repo).length) {
    const want = expandRepoDef(stripped, {}).architectures as string[];
    const have = (repo.architectures as string[] | undefined) ?? [];
    if (JSON.stringify([...new Set(want)].sort()) !== JSON.stringify([...new Set(have)].sort())) repo = {};
  }
  if (!Object.keys(repo).length) return { ...ret, result: true, comment: `Package repo ${name} is absent` };
  if (ctx.test)
    return {
      ...ret,
      comment: `Package repo '${name}' will be removed. This may cause pkg states to behave differently than stated if this action is repeated without test=True, due to the differences in the configured repositories.`,
    };
  try {
    await ctx.call('pkg.del_repo', [stripped]);
  } catch (err) {
    return { ...ret, result: false, comment: (err as Error).message };
  }
  const repos = (await ctx.call('pkg.list_repos', [])) as Record<string, unknown>;
  if (stripped in repos) return { ...ret, result: false, comment: `Failed to remove repo ${name}` };
  ret.changes.repo = name;
  ret.comment = `Removed repo ${name}`;
  if (!removeKey) return { ...ret, result: true };
  try {
    const keyid = await ctx.call('pkg.del_repo_key', [stripped], kwargs);
    ret.changes.keyid = keyid;
    return { ...ret, result: true, comment: `${ret.comment}, and keyid ${String(keyid)}` };
  } catch (err) {
    return {
      ...ret,
      result: false,
      comment: `${ret.comment}, but failed to remove key: ${(err as Error).message}`,
    };
  }
}

export default defineStateModule({
  name: 'pkgrepo',
  doc: 'Package repositories configured or absent (apt one-line sources).',
  functions: {
    managed: defineState({
      // Salt's named arguments: `ppa` (Ubuntu's, not handled here: dropped as before) and `copr`
      // (yum's, unused on apt) are taken and ignored; `aptkey` goes on as before
      args: (z) =>
        z.object({
          name: z.string(),
          ppa: z.unknown().optional(),
          copr: z.unknown().optional(),
          aptkey: z.unknown().default(true),
        }),
      varkw: true,
      doc: 'Ensure the repo line is configured (name: the full line, e.g. `deb http://host/debian bookworm main`).',
      run: (ctx, { name, aptkey }, extra) => managed(ctx, name, { ...extra.kwargs, aptkey }),
    }),
    absent: defineState({
      args: (z) => z.object({ name: z.string() }),
      varkw: true,
      doc: 'Ensure the repo line is not configured.',
      run: (ctx, { name }, extra) => absent(ctx, name, extra.kwargs),
    }),
  },
});
