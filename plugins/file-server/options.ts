/**
 * The file server's options (Salt's `fileserver_backend`, `file_ignore_*`,
 * `fileserver_followsymlinks`, `gitfs_*`, `file_recv*` from `salt/config/__init__.py`), read
 * from the master config (`file_roots`, `file_buffer_size`, `hash_type`, `cachedir` are the
 * kernel's) and from `config.extra` for the ones the kernel schema does not name, validated here.
 */
import { z } from 'zod';
import { SALT_ERR_FILESERVER_OPTIONS } from './errors.js';

const stringList = z
  .union([z.string(), z.array(z.string())])
  .transform((v) => (typeof v === 'string' ? [v] : v));

/** A `gitfs_remotes` entry: a URL, or `{url: [{root: x}, {mountpoint: y}, ...]}` as Salt writes it. */
const remoteEntry = z.union([z.string(), z.record(z.string(), z.unknown())]);

const schema = z.object({
  fileserver_backend: stringList.default(['roots']),
  file_ignore_regex: stringList.default([]),
  file_ignore_glob: stringList.default([]),
  fileserver_followsymlinks: z.boolean().default(false),
  fileserver_list_cache_time: z.number().default(20),
  gitfs_remotes: z.array(remoteEntry).default([]),
  gitfs_root: z.string().default(''),
  gitfs_mountpoint: z.string().default(''),
  gitfs_base: z.string().default('master'),
  gitfs_update_interval: z.number().min(1).default(60),
  file_recv: z.boolean().default(false),
  file_recv_max_size: z.number().min(0).default(100),
  top_file_merging_strategy: z.string().default('merge'),
  env_order: z.array(z.string()).default([]),
  default_top: z.string().default('base'),
  state_top: z.string().default('top.sls'),
  state_top_saltenv: z.string().nullable().default(null),
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
export interface FileServerOptions extends z.output<typeof schema> {
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
  for (const key of Object.keys(schema.shape)) {
    if (config[key] !== undefined) merged[key] = config[key];
    else if (extra[key] !== undefined) merged[key] = extra[key];
  }
  const parsed = schema.safeParse(merged);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new SALT_ERR_FILESERVER_OPTIONS(`${issue?.path.join('.') ?? '?'}: ${issue?.message ?? 'invalid'}`);
  }
  const size = Number(config.file_buffer_size ?? extra.file_buffer_size ?? 262144);
  return {
    ...parsed.data,
    file_roots: roots(config.file_roots ?? extra.file_roots ?? { base: ['/srv/salt'] }),
    file_buffer_size: Number.isSafeInteger(size) && size > 0 ? size : 262144,
    hash_type: str(config.hash_type, 'sha256'),
    cachedir: str(config.cachedir, '/var/cache/salt/master'),
    nodegroups: (config.nodegroups ?? {}) as Record<string, unknown>,
  };
}
