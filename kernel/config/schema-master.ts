/**
 * The master's options: Salt's names and Salt 3006 defaults (`DEFAULT_MASTER_OPTS`), plus the
 * few tsalt adds (`extensions`, `plugins`, `process_kill_timeout_ms`). Options tsalt does not
 * know are warned about and kept in `extra` by the loader.
 */

import { z } from 'zod';
import { isProcessDef, type ProcessDef } from '../units/define.js';
import { SALT_LOGS_DIR, SIGNING_ALGORITHMS } from './constants.js';
import type { MasterPluginOptions } from './option-set.js';
import {
  boolOption,
  collectionOption,
  commonOptions,
  enumOption,
  intOption,
  mappingOption,
  nullablePathOption,
  nullableStringOption,
  numberOption,
  pathOption,
  portOption,
  stringListOption,
  stringOption,
  stringOrListOption,
} from './schema-common.js';

type NodegroupTarget = string | string[];

/** Salt's `repack_dictlist`: a list of one-key mappings becomes one mapping. */
function repackNodegroups(
  value: Record<string, NodegroupTarget> | Record<string, NodegroupTarget>[],
): Record<string, NodegroupTarget> {
  return Array.isArray(value) ? Object.assign({}, ...value) : value;
}

const nodegroupTarget = z.union([z.string(), z.array(z.string())], {
  error: 'expected a compound target string or a list of targets',
});
const nodegroupMap = z.record(z.string(), nodegroupTarget);

const nodegroups = z
  .union([nodegroupMap, z.array(nodegroupMap)], { error: 'expected a mapping of nodegroup name to target' })
  .transform(repackNodegroups);

const engineEntries = z.array(
  z.union([z.string(), z.record(z.string(), z.unknown())], {
    error: 'expected an engine name or a `name: {options}` mapping',
  }),
  { error: 'expected a list of engines' },
);

/** The master schema. Defaults live here; `UserMasterConfig` is its input type. */
export const masterSchema = z.object({
  ...commonOptions('master'),

  // ── network ─────────────────────────────────────────────────────────────────────────────
  id: nullableStringOption('The master id; `null` leaves it to the daemon (Salt uses `<hostname>_master`).'),
  interface: stringOption('0.0.0.0', 'Address the publisher and the request server bind to.'),
  publish_port: portOption(4505, 'Port of the publisher (PUB) that minions subscribe to.'),
  ret_port: portOption(4506, 'Port of the request server (ROUTER): auth, returns and CLI requests.'),
  zmq_backlog: intOption(1000, 'Listen backlog of the ZeroMQ sockets.', { min: 0 }),
  max_request_size: intOption(128 * 1024 * 1024, 'Largest request in bytes the master takes (tsalt).', {
    min: 65536,
  }),
  pub_hwm: intOption(1000, 'High-water mark of the publisher socket.', { min: 0 }),
  publish_replay_seconds: intOption(30, 'Seconds of publishes replayed to (re)connecting minions; 0: none.', {
    min: 0,
  }),
  tcp_master_pub_port: portOption(4512, 'Event bus publish port when ipc_mode is tcp.'),
  tcp_master_pull_port: portOption(4513, 'Event bus pull port when ipc_mode is tcp.'),
  tcp_master_publish_pull: portOption(4514, 'Publisher pull port when ipc_mode is tcp.'),
  tcp_master_workers: portOption(4515, 'Request-server workers port when ipc_mode is tcp.'),
  worker_threads: intOption(
    5,
    "Request-server worker threads (MWorkers), at most: tsalt starts no more than the core count, since each thread serves many requests at once, and one on 2 cores or fewer. They take users' commands, and with more than 2 cores sign-ins and `_pillar`; the request server's main thread handles minions' returns and events itself (and on 2 cores or fewer their sign-ins and `_pillar` too).",
    { min: 1 },
  ),
  process_kill_timeout_ms: intOption(
    10000,
    'tsalt: wait this long after SIGTERM before SIGKILL on shutdown.',
    {
      min: 0,
    },
  ),

  // ── keys and auth ───────────────────────────────────────────────────────────────────────
  auto_accept: boolOption(false, 'Accept every new minion key.'),
  open_mode: boolOption(false, 'Accept any minion without checking its key (dangerous).'),
  autosign_file: nullablePathOption('File of minion id globs whose keys are accepted automatically.'),
  autoreject_file: nullablePathOption('File of minion id globs whose keys are rejected automatically.'),
  autosign_grains_dir: nullablePathOption('Directory of grain-value files for autosigning by grains.'),
  autosign_timeout: intOption(120, 'Minutes an autosign key stays valid.', { min: 0 }),
  minimum_auth_version: intOption(3, 'Oldest minion auth protocol version accepted.', { min: 0 }),
  max_minions: intOption(0, 'Maximum connected minions; 0 means no limit.', { min: 0 }),
  auth_events: boolOption(true, 'Fire `salt/auth` events.'),
  presence_events: boolOption(false, 'Fire `salt/presence/present` and `change` events.'),
  publish_session: intOption(86400, 'Seconds between AES key rotations.', { min: 0 }),
  rotate_aes_key: boolOption(true, 'Rotate the AES key when a minion key is deleted.'),
  sign_pub_messages: boolOption(true, 'Sign every publication with the master key.'),
  publish_signing_algorithm: enumOption(
    SIGNING_ALGORITHMS,
    'PKCS1v15-SHA1',
    'Algorithm that signs publications.',
  ),
  master_sign_pubkey: boolOption(false, 'Sign the master public key in auth replies.'),
  master_sign_key_name: stringOption('master_sign', 'Name of the signing key pair in pki_dir.'),
  master_pubkey_signature: stringOption(
    'master_pubkey_signature',
    'File holding a precomputed public-key signature.',
  ),
  master_use_pubkey_signature: boolOption(
    false,
    'Send the precomputed signature instead of signing each reply.',
  ),
  key_pass: nullableStringOption('Passphrase of the master private key (use a file or env reference).'),
  allow_minion_key_revoke: boolOption(true, 'Let a minion ask the master to revoke its own key.'),
  require_minion_sign_messages: boolOption(false, 'Reject minion payloads without a signature.'),
  drop_messages_signature_fail: boolOption(false, 'Drop minion messages whose signature does not verify.'),
  request_server_ttl: intOption(
    0,
    "Refuse a minion's aes request whose `ts` is more than this many seconds old with Salt's `bad load` (a missing `ts` too); 0 disables.",
    {
      min: 0,
    },
  ),
  request_server_aes_session: intOption(0, 'Seconds a per-minion session key lives; 0 disables rotation.', {
    min: 0,
  }),
  permissive_pki_access: boolOption(false, 'Allow group-writable pki directories.'),
  key_logfile: pathOption(`${SALT_LOGS_DIR}/key`, 'Log file of salt-key.'),
  verify_env: boolOption(true, 'Check and create directories and their permissions at start-up.'),

  // ── ACL and eauth ───────────────────────────────────────────────────────────────────────
  publisher_acl: collectionOption(
    z.record(z.string(), z.array(z.unknown(), { error: 'expected a list of permissions' }), {
      error: 'expected a mapping of user to a list of permissions',
    }),
    {},
    'Users allowed to publish, with their function/target permissions.',
    'mapping of user → permissions',
  ),
  publisher_acl_blacklist: mappingOption('Users and modules denied even when publisher_acl allows them.'),
  external_auth: collectionOption(
    z.record(
      z.string(),
      z.record(z.string(), z.unknown(), { error: 'expected a mapping of user to permissions' }),
      {
        error: 'expected a mapping of eauth backend to a mapping of user to permissions',
      },
    ),
    {},
    'External authentication backends (`pam`, ...) with per-user permissions.',
    'mapping of backend → user → permissions',
  ),
  token_expire: intOption(43200, 'Seconds an eauth token is valid.', { min: 0 }),
  keep_acl_in_token: boolOption(false, 'Store the computed ACL in the eauth token.'),
  eauth_acl_module: stringOption('', 'Module that computes eauth ACLs; empty means the eauth backend.'),
  eauth_tokens: stringOption('localfs', 'Where eauth tokens are stored.'),
  token_expire_user_override: collectionOption(
    z.union([z.boolean(), z.record(z.string(), z.array(z.string()))], {
      error: 'expected true/false or a mapping of eauth backend to a list of users',
    }),
    false,
    'Let users ask for their own token lifetime at login: `true`, or `{eauth: [users]}`.',
    'bool | mapping of backend → users',
  ),
  permissive_acl: boolOption(false, 'Apply the `*` eauth entry to every user, not only to unlisted ones.'),
  sharedsecret: nullableStringOption(
    'Password of the `sharedsecret` eauth backend (use a file or env reference).',
  ),

  // ── jobs and returns ────────────────────────────────────────────────────────────────────
  timeout: numberOption(5, 'Seconds the CLI waits for returns before checking running jobs.', { min: 0 }),
  gather_job_timeout: intOption(10, 'Seconds to wait for `saltutil.find_job` replies.', { min: 1 }),
  keep_jobs_seconds: intOption(86400, 'Seconds a job stays in the job cache.', { min: 0 }),
  keep_jobs: intOption(24, 'Deprecated: hours a job stays; used when keep_jobs_seconds keeps its default.', {
    min: 0,
  }),
  archive_jobs: boolOption(false, 'Archive jobs before deleting them (when the job cache supports it).'),
  job_cache: boolOption(true, 'Store jobs and returns in the master job cache.'),
  master_job_cache: stringOption(
    'job_store',
    "Returner used as the master job cache: job_store (embedded SQLite, the default), local_cache (Salt's directory layout), postgres, redis, or any returner with the job methods.",
  ),
  ext_job_cache: stringOption('', 'Returner every minion sends its returns to as well.'),
  job_cache_store_endtime: boolOption(false, 'Record job end times in the job cache.'),
  minion_data_cache: boolOption(true, 'Cache minion grains and pillar on the master.'),
  cache: stringOption('localfs', 'Driver of the minion data cache.'),
  preserve_minion_cache: boolOption(false, 'Keep the data cache of deleted minions.'),
  runner_returns: boolOption(true, 'Store runner returns in the job cache.'),
  loop_interval: numberOption(60, 'Seconds between maintenance runs (job cleanup, key rotation checks).', {
    min: 0,
  }),
  maintenance_interval: intOption(3600, 'Seconds before the maintenance process is restarted.', { min: 0 }),
  ping_on_rotate: boolOption(false, 'Ping all minions after an AES key rotation.'),
  master_stats: boolOption(false, 'Fire master statistics events.'),
  master_stats_event_iter: intOption(60, 'Seconds between master statistics events.', { min: 1 }),

  // ── file server ─────────────────────────────────────────────────────────────────────────
  file_roots: collectionOption(
    z
      .record(
        z.string(),
        z.union([z.string(), z.array(z.string())], {
          error: 'expected a directory or a list of directories',
        }),
        { error: 'expected a mapping of saltenv to a list of directories' },
      )
      .transform((roots) =>
        Object.fromEntries(
          Object.entries(roots).map(([env, dirs]) => [env, typeof dirs === 'string' ? [dirs] : dirs]),
        ),
      ),
    { base: ['/srv/salt'] },
    'Directories the file server serves, by saltenv; the first directory that has a file wins.',
    'mapping of saltenv → list of paths',
  ),
  file_buffer_size: intOption(262144, 'Bytes of a file sent in one `_serve_file` chunk.', { min: 1 }),

  // ── targeting and client output ─────────────────────────────────────────────────────────
  nodegroups: collectionOption(
    nodegroups,
    {},
    'Named compound targets for `-N`.',
    'mapping of name → target',
  ),
  show_jid: boolOption(false, 'Print the jid when a job is published.'),
  show_timeout: boolOption(true, 'List minions that did not return in time.'),
  color: boolOption(true, 'Colour CLI output.'),
  cli_summary: boolOption(false, 'Print a summary of returns after the CLI output.'),

  // ── processes, units ─────────────────────────────────────────────────────────
  engines: collectionOption(
    engineEntries,
    [],
    'Engines started under the process manager.',
    'list of engines',
  ),
  ext_processes: collectionOption(
    z.array(
      z.union([z.string().min(1), z.custom<ProcessDef>(isProcessDef)], {
        error: 'expected a module path, a package name, or a defineProcess({ name, start }) value',
      }),
      { error: 'expected a list of processes' },
    ),
    [],
    'Extra processes run under the process manager: module paths (relative to the config folder), package names, or defineProcess values in a code config.',
    'list of paths, packages or processes',
  ),
  engines_dirs: stringListOption('Extra directories searched for engines.', 'list of paths'),
  runner_dirs: stringListOption('Extra directories searched for runners.', 'list of paths'),
  outputter_dirs: stringListOption('Extra directories searched for outputters.', 'list of paths'),
  returner_dirs: stringListOption('Extra directories searched for returners.', 'list of paths'),
  utils_dirs: stringListOption('Extra directories searched for utility units.', 'list of paths'),
  schedule: mappingOption('The master scheduler.'),
});

/** What a master config file (or `defineConfig`) may contain. */
export type UserMasterConfig = z.input<typeof masterSchema> & MasterPluginOptions;

/** The master schema's output, before paths are resolved and the result frozen. */
export type MasterSchemaOutput = z.output<typeof masterSchema>;
