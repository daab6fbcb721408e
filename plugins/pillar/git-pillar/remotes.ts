/**
 * git_pillar remotes as Salt's `ext_pillar: - git: [...]` writes them (`GitProvider.get_url`
 * with the `git_pillar` role): `<branch> <url>` (or a bare URL, taking `git_pillar_branch`),
 * alone or as a one-key mapping to a list of per-remote parameters: `env`, `root`,
 * `mountpoint`, `name`, `base` (only with the `__env__` branch), `fallback`, `all_saltenvs`,
 * `ssl_verify`, `refspecs` and the auth parameters, each overriding its global `git_pillar_*`.
 */
import { createHash } from 'node:crypto';
import {
  AUTH_PARAMS,
  type GitAuth,
  GitRefspecError,
  mirrorRefspecs,
  paramString,
  RemoteEntryError,
  readRemoteEntry,
  redactUrl,
  stripSaltPath,
  toStringList,
} from '../../git/index.js';
import { PILLAR_ERR_GIT_REMOTE } from '../errors.js';
import type { GitPillarOptions } from './options.js';

export interface GitPillarRemote {
  /** `<branch> <url>` as written (Salt's remote id; the runner's keys), URL password masked. */
  readonly id: string;
  readonly branch: string;
  readonly url: string;
  readonly name?: string;
  /** Folder under `<cachedir>/git_pillar/`: the `name`, else a hash of the id. */
  readonly dir: string;
  /** The per-remote or global `env` ('' when the branch decides). */
  readonly env: string;
  readonly root: string;
  readonly mountpoint: string;
  readonly base: string;
  readonly fallback: string;
  readonly allSaltenvs?: string;
  readonly sslVerify: boolean;
  /** Fetch refspecs (per remote, else `git_pillar_refspecs`). */
  readonly refspecs: readonly string[];
  readonly auth: GitAuth;
}

const PER_REMOTE = new Set([
  'base',
  'env',
  'root',
  'ssl_verify',
  'fallback',
  'name',
  'mountpoint',
  'all_saltenvs',
  'refspecs',
  ...AUTH_PARAMS,
]);

const bool = (v: unknown, def: boolean): boolean =>
  v === undefined || v === null ? def : v === true || v === 'True' || v === 'true';

function fail(id: string, why: string): never {
  throw new PILLAR_ERR_GIT_REMOTE(redactUrl(id), why);
}

/** The remote's refspecs (per remote, else global), checked so a bad one is a config error. */
function refspecsOf(id: string, v: unknown, global: readonly string[]): readonly string[] {
  const specs = v === undefined || v === null ? global : toStringList(v);
  try {
    mirrorRefspecs(specs);
  } catch (err) {
    if (err instanceof GitRefspecError) fail(id, err.message);
    throw err;
  }
  return specs;
}

/** The remotes of one `git` ext_pillar entry; a malformed one throws PILLAR_ERR_GIT_REMOTE. */
export function parseGitPillarRemotes(repos: readonly unknown[], o: GitPillarOptions): GitPillarRemote[] {
  const out: GitPillarRemote[] = [];
  for (const entry of repos) {
    let read: ReturnType<typeof readRemoteEntry>;
    try {
      read = readRemoteEntry(entry, PER_REMOTE);
    } catch (err) {
      if (err instanceof RemoteEntryError) fail(err.remote, err.message);
      throw err;
    }
    const { id, params } = read;
    const parts = id.trim().split(/\s+/);
    const [branch, url] =
      parts.length >= 2 ? [parts[0]!, parts.slice(1).join(' ')] : [o.git_pillar_branch, id.trim()];
    if (!url) fail(id, 'no URL');
    if (branch !== '__env__' && 'base' in params)
      fail(id, 'base can only be specified if __env__ is specified as the branch name');
    const name = params.name === undefined ? undefined : String(params.name);
    if (name !== undefined && (!/^[\w.-]+$/.test(name) || name === '.' || name === '..'))
      fail(id, `name "${name}" may hold only letters, digits, "_", "-" and "."`);
    const auth: GitAuth = {};
    for (const k of ['user', 'password', 'pubkey', 'privkey', 'passphrase'] as const) {
      const v = paramString(params, k, o[`git_pillar_${k}`]);
      if (v) auth[k] = v;
    }
    auth.insecure_auth = bool(params.insecure_auth, o.git_pillar_insecure_auth);
    out.push({
      id: redactUrl(id),
      branch,
      url,
      name,
      dir: name ?? createHash('sha256').update(id).digest('hex').slice(0, 16),
      env: paramString(params, 'env', o.git_pillar_env),
      root: stripSaltPath(paramString(params, 'root', o.git_pillar_root)),
      mountpoint: stripSaltPath(String(params.mountpoint ?? '')),
      base: paramString(params, 'base', o.git_pillar_base),
      fallback: paramString(params, 'fallback', o.git_pillar_fallback),
      allSaltenvs: params.all_saltenvs === undefined ? undefined : String(params.all_saltenvs),
      sslVerify: bool(params.ssl_verify, o.git_pillar_ssl_verify),
      refspecs: refspecsOf(id, params.refspecs, o.git_pillar_refspecs),
      auth,
    });
  }
  const seen = new Map<string, string>();
  for (const r of out) {
    const other = seen.get(r.dir);
    if (other !== undefined)
      fail(r.id, `conflicts with remote "${other}" (same cache folder); give each a per-remote "name"`);
    seen.set(r.dir, r.id);
  }
  return out;
}

/** The branch or tag to check out (Salt's `get_checkout_target`). */
export function checkoutTarget(r: GitPillarRemote, pillarenv: string | null, saltenv: string | null): string {
  if (r.branch !== '__env__') return r.branch;
  if (r.allSaltenvs) return r.allSaltenvs;
  const target = pillarenv || saltenv || 'base';
  return target === 'base' ? r.base : target;
}

/** The pillarenv a checked-out remote is compiled in (Salt's `GitPillar.checkout`). */
export function remoteEnv(r: GitPillarRemote, pillarenv: string | null, saltenv: string | null): string {
  if (r.branch === '__env__' && r.allSaltenvs) return pillarenv || saltenv || 'base';
  if (r.env) return r.env;
  if (r.branch === r.base) return 'base';
  const tgt = checkoutTarget(r, pillarenv, saltenv);
  return tgt === r.base ? 'base' : tgt;
}
