/**
 * The file server's options (Salt's `fileserver_backend`, `file_ignore_*`,
 * `fileserver_followsymlinks`, `gitfs_*`, `file_recv*` from `salt/config/__init__.py`), read
 * from the master config (`file_roots`, `file_buffer_size`, `hash_type`, `cachedir` are the
 * kernel's) and from `config.extra` for the ones the kernel schema does not name, validated here.
 */
import { z } from 'zod';
import {
  boolOption,
  type ConfigWithExtra,
  collectionOption,
  defineOptions,
  intOption,
  mappingOption,
  nullableStringOption,
  numberOption,
  type OptionsInput,
  stringListOption,
  stringOption,
  stringOrListOption,
} from '../../kernel/index.js';
import { DEFAULT_REFSPECS, stringListSchema } from '../git/index.js';
import { SALT_ERR_FILESERVER_OPTIONS } from './errors.js';

/** A `gitfs_remotes` entry: a URL, or `{url: [{root: x}, {mountpoint: y}, ...]}` as Salt writes it. */
const remoteEntry = z.union([z.string(), z.record(z.string(), z.unknown())], {
  error: 'expected a URL or a `URL: [{root: ...}, {mountpoint: ...}]` mapping',
});

/** The file server's own options, read on the master and, for `file_client: local`, the minion. */
export const fileServerOptionSet = defineOptions(['master', 'minion'], {
  fileserver_backend: collectionOption(
    z
      .union([z.string(), z.array(z.string())], { error: 'expected a backend name or a list of them' })
      .transform((v) => (typeof v === 'string' ? [v] : v)),
    ['roots'],
    'File server backends, in the order they are searched (`roots`, `gitfs`).',
    'string | list of strings',
  ),
  file_ignore_regex: stringOrListOption('Regular expressions of paths the file server hides.'),
  file_ignore_glob: stringOrListOption('Globs of paths the file server hides.'),
  fileserver_followsymlinks: boolOption(
    false,
    'Serve files through symlinks that lead out of a root (tsalt default: no).',
  ),
  fileserver_list_cache_time: numberOption(
    20,
    'Seconds a file list may be cached (accepted; tsalt keeps no list cache).',
    { min: 0 },
  ),
  gitfs_remotes: collectionOption(
    z.array(remoteEntry, { error: 'expected a list of git remotes' }),
    [],
    'Git repositories served by gitfs, with per-remote `root`, `mountpoint`, `base`, `name`, `saltenv`, auth.',
    'list of remotes',
  ),
  gitfs_root: stringOption('', 'Subfolder of every gitfs remote that is served.'),
  gitfs_mountpoint: stringOption('', 'Where every gitfs remote appears under salt://.'),
  gitfs_base: stringOption('master', 'The branch served as the `base` saltenv.'),
  gitfs_update_interval: intOption(60, 'Seconds between fetches of the gitfs remotes.', { min: 1 }),
  gitfs_saltenv: collectionOption(
    z.array(z.record(z.string(), z.unknown()), {
      error: 'expected a list of `saltenv: [{ref: ...}]` mappings',
    }),
    [],
    'Per-saltenv `ref`, `root`, `mountpoint` for every gitfs remote (`[{dev: [{ref: develop}]}]`).',
    'list of mappings',
  ),
  gitfs_disable_saltenv_mapping: boolOption(
    false,
    'Serve only the `base` branch and the saltenvs mapped by a `saltenv` `ref`, not every branch and tag.',
  ),
  gitfs_refspecs: collectionOption(
    stringListSchema,
    [...DEFAULT_REFSPECS],
    'Refspecs every gitfs remote fetches; branches land under `refs/remotes/origin/`, tags under `refs/tags/`.',
    'string | list of strings',
  ),
  gitfs_ref_types: collectionOption(
    stringListSchema,
    ['branch', 'tag', 'sha'],
    'Which refs are gitfs saltenvs (`branch`, `tag`), and the order a saltenv is looked up in; `sha` serves `saltenv=<commit>`.',
    'string | list of strings',
  ),
  gitfs_saltenv_whitelist: collectionOption(
    stringListSchema,
    [],
    'Saltenvs gitfs serves (globs or regular expressions); empty serves all.',
    'string | list of strings',
  ),
  gitfs_saltenv_blacklist: collectionOption(
    stringListSchema,
    [],
    'Saltenvs gitfs never serves (globs or regular expressions).',
    'string | list of strings',
  ),
  gitfs_provider: stringOption(
    '',
    'Accepted for compatibility: tsalt always runs the `git` program (Salt: pygit2 or gitpython).',
  ),
  gitfs_fallback: stringOption('', 'The branch or tag served for a saltenv whose own ref is missing.'),
  gitfs_ssl_verify: boolOption(true, 'Verify the TLS certificates of https remotes.'),
  gitfs_user: stringOption('', 'User name for https gitfs remotes (with `gitfs_password`).'),
  gitfs_password: stringOption(
    '',
    'Password for https gitfs remotes (passed to git through its environment, never logged).',
  ),
  gitfs_insecure_auth: boolOption(false, 'Allow `gitfs_user`/`gitfs_password` on plain http remotes.'),
  gitfs_pubkey: stringOption('', 'Public key file for ssh gitfs remotes (with `gitfs_privkey`).'),
  gitfs_privkey: stringOption('', 'Private key file for ssh gitfs remotes (`ssh -i`).'),
  gitfs_passphrase: stringOption(
    '',
    'Passphrase of `gitfs_privkey` (given to ssh through an askpass helper).',
  ),
  file_recv: boolOption(false, 'Accept files minions push with cp.push.'),
  file_recv_max_size: numberOption(100, 'Largest file a minion may push, in MiB.', { min: 0 }),
  top_file_merging_strategy: stringOption(
    'merge',
    'How top files of several saltenvs merge (`merge`, `same`, `merge_all`).',
  ),
  env_order: stringListOption('The order of saltenvs when top files merge.'),
  default_top: stringOption(
    'base',
    'The saltenv whose top file is used with `top_file_merging_strategy: same`.',
  ),
  state_top: stringOption('top.sls', 'The top file name.'),
  state_top_saltenv: nullableStringOption('The only saltenv whose top file is read.'),
});

/** A minion's own `file_roots`, served by `file_client: local` (the master's are the kernel's). */
export const minionFileRootsOption = defineOptions('minion', {
  file_roots: mappingOption('Folders served to this minion by `file_client: local`, by saltenv.'),
});

declare module '../../kernel/config/option-set.js' {
  interface MasterPluginOptions extends OptionsInput<typeof fileServerOptionSet> {}
}

/** Options of other plugins (states, renderers) the file server hands to minions in `_master_opts`. */
const borrowed = z.object({
  renderer: z.string().default('jinja|yaml'),
  failhard: z.boolean().default(false),
  state_auto_order: z.boolean().default(true),
  state_events: z.boolean().default(false),
  state_aggregate: z.boolean().default(false),
  jinja_env: z.record(z.string(), z.unknown()).default({}),
  jinja_sls_env: z.record(z.string(), z.unknown()).default({}),
  jinja_lstrip_blocks: z.boolean().default(false),
  jinja_trim_blocks: z.boolean().default(false),
});

/** Every option the file server reads. */
export interface FileServerOptions
  extends ReturnType<typeof fileServerOptionSet.read>,
    z.output<typeof borrowed> {
  readonly file_roots: Readonly<Record<string, readonly string[]>>;
  readonly file_buffer_size: number;
  readonly hash_type: string;
  readonly cachedir: string;
  readonly nodegroups: Readonly<Record<string, unknown>>;
}

function str(v: unknown, fallback: string): string {
  return typeof v === 'string' ? v : fallback;
}

function roots(v: unknown): Record<string, string[]> {
  if (!v || typeof v !== 'object') return {};
  const out: Record<string, string[]> = {};
  for (const [env, dirs] of Object.entries(v as Record<string, unknown>)) {
    if (typeof dirs === 'string') out[env] = [dirs];
    else if (Array.isArray(dirs)) out[env] = dirs.filter((d): d is string => typeof d === 'string');
  }
  return out;
}

/**
 * The file server's options from a resolved master (or minion, for `file_client: local`)
 * config: its own keys win, then `extra`. Throws {@link SALT_ERR_FILESERVER_OPTIONS} naming the
 * bad key.
 */
export function fileServerOptions(config: Readonly<Record<string, unknown>>): FileServerOptions {
  const extra = (config.extra ?? {}) as Record<string, unknown>;
  const merged: Record<string, unknown> = {};
  for (const key of Object.keys(borrowed.shape)) {
    if (config[key] !== undefined) merged[key] = config[key];
    else if (extra[key] !== undefined) merged[key] = extra[key];
  }
  const parsed = borrowed.safeParse(merged);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new SALT_ERR_FILESERVER_OPTIONS(`${issue?.path.join('.') ?? '?'}: ${issue?.message ?? 'invalid'}`);
  }
  let own: ReturnType<typeof fileServerOptionSet.read>;
  try {
    // a config the loader resolved has them in `extra`; one built by hand may hold them at the top
    const given: Record<string, unknown> = { ...extra };
    for (const key of Object.keys(fileServerOptionSet.shape))
      if (config[key] !== undefined) given[key] = config[key];
    own = fileServerOptionSet.read({
      extra: given,
      conf_file: config.conf_file as string | undefined,
    } as ConfigWithExtra);
  } catch (err) {
    throw new SALT_ERR_FILESERVER_OPTIONS((err as Error).message);
  }
  const size = Number(config.file_buffer_size ?? extra.file_buffer_size ?? 262144);
  return {
    ...own,
    ...parsed.data,
    file_roots: roots(config.file_roots ?? extra.file_roots ?? { base: ['/srv/salt'] }),
    file_buffer_size: Number.isSafeInteger(size) && size > 0 ? size : 262144,
    hash_type: str(config.hash_type, 'sha256'),
    cachedir: str(config.cachedir, '/var/cache/salt/master'),
    nodegroups: (config.nodegroups ?? {}) as Record<string, unknown>,
  };
}
