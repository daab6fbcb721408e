/**
 * `gitfs_remotes` as Salt writes it (`salt/utils/gitfs.py` `GitBase.init_remotes`): a URL, or
 * a one-key mapping from the URL to a list of one-key mappings of per-remote options (`root`,
 * `mountpoint`, `base`, `name`, `saltenv`, `fallback`, `all_saltenvs`,
 * `disable_saltenv_mapping`, `ssl_verify`, `refspecs`, `saltenv_whitelist`, `saltenv_blacklist`,
 * `ref_types`, `update_interval` and the auth options), which override the global
 * `gitfs_*` ones. Mount points are given as `salt://path`. Two remotes with the same cache
 * folder (the same URL without distinct `name`s) are refused, as in Salt.
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
  repackDictlist,
  stripSaltPath,
  toStringList,
} from '../git/index.js';
import { SALT_ERR_GITFS_REMOTE } from './errors.js';
import type { FileServerOptions } from './options.js';

/** Per-saltenv overrides (Salt's `saltenv` per-remote option and `gitfs_saltenv`). */
export interface SaltenvConf {
  ref?: string;
  root?: string;
  mountpoint?: string;
}

export interface GitRemote {
  readonly url: string;
  /** Folder name under `<cachedir>/gitfs/`: the `name`, else a hash of the URL. */
  readonly id: string;
  readonly name?: string;
  readonly root: string;
  readonly mountpoint: string;
  readonly base: string;
  readonly fallback: string;
  readonly allSaltenvs?: string;
  readonly disableSaltenvMapping: boolean;
  readonly sslVerify: boolean;
  /** Fetch refspecs (per remote, else `gitfs_refspecs`). */
  readonly refspecs: readonly string[];
  /** Saltenvs served / hidden (per remote, else `gitfs_saltenv_whitelist` / `_blacklist`). */
  readonly saltenvWhitelist: readonly string[];
  readonly saltenvBlacklist: readonly string[];
  /** Per-saltenv overrides of this remote (its `saltenv` option). */
  readonly saltenv: Readonly<Record<string, SaltenvConf>>;
  /** The global `gitfs_saltenv` overrides. */
  readonly globalSaltenv: Readonly<Record<string, SaltenvConf>>;
  readonly auth: GitAuth;
  /** Which refs are saltenvs and in which order a saltenv's ref is looked up (`ref_types`). */
  readonly refTypes: readonly RefType[];
  /** Seconds between fetches of this remote (per remote, else `gitfs_update_interval`). */
  readonly updateInterval: number;
}

export type RefType = 'branch' | 'tag' | 'sha';
const REF_TYPES: readonly RefType[] = ['branch', 'tag', 'sha'];
/** Salt's FileserverUpdate: an interval of 0 means its default. */
const DEFAULT_INTERVAL = 60;

const PER_REMOTE = new Set([
  'root',
  'mountpoint',
  'base',
  'name',
  'saltenv',
  'fallback',
  'all_saltenvs',
  'disable_saltenv_mapping',
  'ssl_verify',
  'refspecs',
  'saltenv_whitelist',
  'saltenv_blacklist',
  'ref_types',
  'update_interval',
  ...AUTH_PARAMS,
]);

const bool = (v: unknown, def: boolean): boolean =>
  v === undefined || v === null ? def : v === true || v === 'True' || v === 'true';

/** `[{dev: [{ref: develop}]}]` (or the mapping it repacks to) → `{dev: {ref: 'develop'}}`. */
export function saltenvConf(url: string, value: unknown): Record<string, SaltenvConf> {
  if (value === undefined || value === null) return {};
  const envs = repackDictlist(value);
  if (!envs) throw new SALT_ERR_GITFS_REMOTE(redactUrl(url), 'saltenv must be a list of one-key mappings');
  const out: Record<string, SaltenvConf> = {};
  for (const [env, conf] of Object.entries(envs)) {
    const c = repackDictlist(conf);
    if (!c)
      throw new SALT_ERR_GITFS_REMOTE(redactUrl(url), `saltenv "${env}" must be a list of one-key mappings`);
    const entry: SaltenvConf = {};
    for (const [k, v] of Object.entries(c)) {
      if (k !== 'ref' && k !== 'root' && k !== 'mountpoint') {
        throw new SALT_ERR_GITFS_REMOTE(
          redactUrl(url),
          `unknown per-saltenv option "${k}" for saltenv "${env}"`,
        );
      }
      entry[k] = k === 'ref' ? String(v) : stripSaltPath(String(v));
    }
    out[String(env)] = entry;
  }
  return out;
}

/** A per-remote `stringlist` parameter, else the global one. */
const listParam = (v: unknown, global: readonly string[]): readonly string[] =>
  v === undefined || v === null ? global : toStringList(v);

/** The remote's refspecs, checked here so a bad one is a config error, not a failed fetch. */
function refspecsOf(url: string, v: unknown, global: readonly string[]): readonly string[] {
  const specs = listParam(v, global);
  try {
    mirrorRefspecs(specs);
  } catch (err) {
    if (err instanceof GitRefspecError) throw new SALT_ERR_GITFS_REMOTE(redactUrl(url), err.message);
    throw err;
  }
  return specs;
}

/** `ref_types` (per remote, else `gitfs_ref_types`), lower-cased; an unknown type is refused. */
function refTypesOf(url: string, v: unknown, global: readonly string[]): RefType[] {
  const types = listParam(v, global).map((t) => t.toLowerCase());
  const bad = types.filter((t) => !(REF_TYPES as readonly string[]).includes(t));
  if (bad.length > 0)
    throw new SALT_ERR_GITFS_REMOTE(
      redactUrl(url),
      `invalid ref_types: ${bad.join(', ')}. The supported values are: ${REF_TYPES.join(', ')}`,
    );
  return types as RefType[];
}

/** `update_interval` (per remote, else `gitfs_update_interval`): whole seconds, 0 → 60. */
function intervalOf(url: string, v: unknown, global: number): number {
  if (v === undefined || v === null) return global || DEFAULT_INTERVAL;
  const n = typeof v === 'number' ? v : /^\s*\d+\s*$/.test(String(v)) ? Number(v) : Number.NaN;
  if (!Number.isInteger(n) || n < 0)
    throw new SALT_ERR_GITFS_REMOTE(
      redactUrl(url),
      `update_interval must be a whole number of seconds, not ${JSON.stringify(v)}`,
    );
  return n || DEFAULT_INTERVAL;
}

/** The auth options: per-remote, else the global `gitfs_<param>`. */
function authOf(params: Record<string, unknown>, opts: FileServerOptions): GitAuth {
  const auth: GitAuth = {};
  for (const k of ['user', 'password', 'pubkey', 'privkey', 'passphrase'] as const) {
    const v = paramString(params, k, opts[`gitfs_${k}`]);
    if (v) auth[k] = v;
  }
  auth.insecure_auth = bool(params.insecure_auth, opts.gitfs_insecure_auth);
  return auth;
}

/** The remotes, each with its options; a malformed entry throws {@link SALT_ERR_GITFS_REMOTE}. */
export function parseRemotes(opts: FileServerOptions): GitRemote[] {
  const globalSaltenv = saltenvConf('gitfs_saltenv', opts.gitfs_saltenv);
  const out: GitRemote[] = [];
  for (const entry of opts.gitfs_remotes) {
    let read: ReturnType<typeof readRemoteEntry>;
    try {
      read = readRemoteEntry(entry, PER_REMOTE);
    } catch (err) {
      if (err instanceof RemoteEntryError)
        throw new SALT_ERR_GITFS_REMOTE(redactUrl(err.remote), err.message);
      throw err;
    }
    const { id: url, params } = read;
    const saltenv = saltenvConf(url, params.saltenv);
    let base = paramString(params, 'base', opts.gitfs_base);
    // a `ref` for the base saltenv is the base branch
    if (saltenv.base?.ref) base = saltenv.base.ref;
    const name = params.name === undefined ? undefined : String(params.name);
    if (name !== undefined && (!/^[\w.-]+$/.test(name) || name === '.' || name === '..'))
      throw new SALT_ERR_GITFS_REMOTE(
        redactUrl(url),
        `name "${name}" may hold only letters, digits, "_", "-" and "."`,
      );
    const id = name ?? createHash('sha256').update(url).digest('hex').slice(0, 16);
    out.push({
      url,
      id,
      name,
      root: stripSaltPath(paramString(params, 'root', opts.gitfs_root)),
      mountpoint: stripSaltPath(paramString(params, 'mountpoint', opts.gitfs_mountpoint)),
      base,
      fallback: paramString(params, 'fallback', opts.gitfs_fallback),
      allSaltenvs: params.all_saltenvs === undefined ? undefined : String(params.all_saltenvs),
      disableSaltenvMapping: bool(params.disable_saltenv_mapping, opts.gitfs_disable_saltenv_mapping),
      sslVerify: bool(params.ssl_verify, opts.gitfs_ssl_verify),
      refspecs: refspecsOf(url, params.refspecs, opts.gitfs_refspecs),
      saltenvWhitelist: listParam(params.saltenv_whitelist, opts.gitfs_saltenv_whitelist),
      saltenvBlacklist: listParam(params.saltenv_blacklist, opts.gitfs_saltenv_blacklist),
      saltenv,
      globalSaltenv,
      auth: authOf(params, opts),
      refTypes: refTypesOf(url, params.ref_types, opts.gitfs_ref_types),
      updateInterval: intervalOf(url, params.update_interval, opts.gitfs_update_interval),
    });
  }
  const seen = new Map<string, string>();
  for (const r of out) {
    const other = seen.get(r.id);
    if (other !== undefined) {
      throw new SALT_ERR_GITFS_REMOTE(
        redactUrl(r.url),
        `conflicts with remote ${redactUrl(other)} (same cache folder); give each a per-remote "name"`,
      );
    }
    seen.set(r.id, r.url);
  }
  return out;
}
