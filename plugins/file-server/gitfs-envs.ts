/**
 * Which saltenvs a gitfs remote serves, and from which tree (Salt's
 * `GitProvider._get_envs_from_ref_paths` and the per-saltenv `ref`/`root`/`mountpoint`
 * overlay): a branch or tag is the saltenv of its name (the `base` branch is `base`), unless a
 * per-remote or global `saltenv` entry maps it to other saltenvs by `ref`, or
 * `disable_saltenv_mapping` limits the saltenvs to the mapped ones. A saltenv's ref missing from
 * the remote falls back to `fallback`; `all_saltenvs` serves one ref in every saltenv. A saltenv
 * kept out by `saltenv_whitelist` / `saltenv_blacklist` is neither listed nor served.
 * `ref_types` says which refs are saltenvs (branches, tags) and in which order a saltenv's ref
 * is looked up (branch, tag, then a commit with `sha`).
 */
import { envExposed, type GitRef } from '../git/index.js';
import type { GitRemote, SaltenvConf } from './gitfs-remotes.js';

/** What one saltenv of a remote serves. */
export interface EnvTree {
  tree: string;
  root: string;
  mountpoint: string;
}

export interface RemoteEnvs {
  envs: Record<string, EnvTree>;
  /** With `all_saltenvs`: the tree every saltenv gets. */
  all?: EnvTree;
}

function conf(remote: GitRemote, env: string): SaltenvConf {
  return { ...remote.globalSaltenv[env], ...remote.saltenv[env] };
}

/** ref name → the saltenvs it is mapped to by `ref` (per-remote first, then global for the rest). */
function revmap(remote: GitRemote): Map<string, string[]> {
  const map = new Map<string, string[]>();
  const add = (ref: string, env: string) => map.set(ref, [...(map.get(ref) ?? []), env]);
  for (const [env, c] of Object.entries(remote.saltenv)) if (c.ref && env !== 'base') add(c.ref, env);
  const mapped = new Set([...map.values()].flat());
  for (const [env, c] of Object.entries(remote.globalSaltenv)) {
    if (c.ref && env !== 'base' && !mapped.has(env) && !(env in remote.saltenv)) add(c.ref, env);
  }
  return map;
}

/** The saltenvs a `ref` mapping names, listed by `envs` even when their ref is missing (as Salt does). */
export function mappedEnvs(remote: GitRemote): string[] {
  return [...revmap(remote).values()].flat().filter((env) => exposed(remote, env));
}

/** The ref a saltenv is served from, or undefined when mapping is disabled and none is set. */
export function refForEnv(remote: GitRemote, env: string): string | undefined {
  if (remote.allSaltenvs) return remote.allSaltenvs;
  if (env === 'base') return remote.base;
  const ref = conf(remote, env).ref;
  if (remote.disableSaltenvMapping) return ref;
  return ref ?? env;
}

/** Whether the remote's saltenv white- and blacklists let `env` through. */
export function exposed(remote: GitRemote, env: string): boolean {
  return envExposed(env, remote.saltenvWhitelist, remote.saltenvBlacklist);
}

/**
 * The refs a remote may serve that are no branch or tag name (its `base`, `fallback`,
 * `all_saltenvs` and mapped refs), to look up as commits when `ref_types` has `sha`.
 */
export function shaCandidates(remote: GitRemote, refs: readonly GitRef[]): string[] {
  if (!remote.refTypes.includes('sha')) return [];
  const names = new Set(refs.map((r) => r.name));
  const wanted = [remote.base, remote.fallback, remote.allSaltenvs ?? '', ...revmap(remote).keys()];
  return [...new Set(wanted)].filter((r) => r && !names.has(r));
}

/** A hex string, as Salt's `is_hex`: a `base` that is one is listed as a saltenv. */
export const isHex = (s: string): boolean => /^[0-9a-fA-F]+$/.test(s);

/**
 * The saltenvs of a remote and their trees: branches and tags as `ref_types` allows, a
 * saltenv's ref looked up as each type in turn (`shaTrees`: the trees of commits found by
 * {@link shaCandidates}).
 */
export function remoteEnvs(
  remote: GitRemote,
  refs: readonly GitRef[],
  shaTrees: ReadonlyMap<string, string> = new Map(),
): RemoteEnvs {
  const types = remote.refTypes;
  const byName = (name: string) => {
    for (const type of types) {
      const tree =
        type === 'sha' ? shaTrees.get(name) : refs.find((r) => r.kind === type && r.name === name)?.tree;
      if (tree) return tree;
    }
    return undefined;
  };
  const rev = revmap(remote);
  const names = new Set<string>();
  if (isHex(remote.base)) names.add('base');
  for (const ref of refs) {
    if (!types.includes(ref.kind)) continue;
    const mapped = rev.get(ref.name);
    if (mapped) for (const e of mapped) names.add(e);
    else if (ref.name === remote.base) names.add('base');
    else if (!remote.disableSaltenvMapping) names.add(ref.name);
  }
  // saltenvs mapped to a commit
  for (const [ref, envs] of rev) if (shaTrees.has(ref)) for (const e of envs) names.add(e);
  const out: RemoteEnvs = { envs: {} };
  const place = (env: string, tree: string): EnvTree => {
    const c = conf(remote, env);
    return { tree, root: c.root ?? remote.root, mountpoint: c.mountpoint ?? remote.mountpoint };
  };
  for (const env of [...names].sort()) {
    if (!exposed(remote, env)) continue;
    const ref = refForEnv(remote, env);
    const tree = (ref && byName(ref)) || (remote.fallback ? byName(remote.fallback) : undefined);
    if (tree) out.envs[env] = place(env, tree);
  }
  if (remote.allSaltenvs) {
    const tree = byName(remote.allSaltenvs);
    if (tree) out.all = { tree, root: remote.root, mountpoint: remote.mountpoint };
  }
  return out;
}
