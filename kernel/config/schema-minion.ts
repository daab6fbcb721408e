/**
 * The minion's options: Salt's names and Salt 3006 defaults (`DEFAULT_MINION_OPTS`, Linux),
 * plus tsalt's `extensions` and `plugins`. Options tsalt does not know are warned about and
 * kept in `extra` by the loader.
 */
import { z } from 'zod';
import { ENCRYPTION_ALGORITHMS, SIGNING_ALGORITHMS } from './constants.js';
import type { MinionPluginOptions } from './option-set.js';
import {
  boolOption,
  collectionOption,
  commonOptions,
  enumOption,
  intOption,
  mappingOption,
  nullableStringOption,
  numberOption,
  portOption,
  stringListOption,
  stringOption,
} from './schema-common.js';

const masterAddress = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)], {
  error: 'expected a master address or a non-empty list of addresses',
});

/** The minion schema. Defaults live here; `UserMinionConfig` is its input type. */
export const minionSchema = z.object({
  ...commonOptions('minion'),

  // ── identity and master ─────────────────────────────────────────────────────────────────
  id: nullableStringOption(
    'The minion id; `null` (or empty) means the host name (see `resolveMinionId`). Numbers become strings.',
  ),
  master: collectionOption(
    masterAddress,
    'salt',
    'The master address, or a list for multi-master.',
    'string | list of strings',
  ),
  master_type: enumOption(
    ['str', 'failover', 'func', 'disable', 'distributed'],
    'str',
    'How `master` is interpreted.',
  ),
  master_port: portOption(4506, "The master's request-server port (`ret_port`)."),
  publish_port: portOption(4505, "The master's publisher port; the auth reply's value wins unless set here."),
  interface: stringOption('0.0.0.0', 'Interface the minion binds local listeners to.'),
  master_finger: stringOption('', 'Expected fingerprint of the master public key; empty skips the check.'),
  master_tries: intOption(1, 'Connection attempts to the master before giving up; -1 means forever.', {
    min: -1,
  }),
  master_alive_interval: intOption(0, 'Seconds between master liveness checks (multi-master); 0 disables.', {
    min: 0,
  }),
  random_master: boolOption(false, 'Pick a random master from the list.'),
  master_shuffle: boolOption(false, 'Deprecated alias of random_master.'),
  retry_dns: numberOption(30, 'Seconds between attempts to resolve the master address.', { min: 0 }),
  retry_dns_count: collectionOption(
    z
      .int({ error: 'expected an integer or null' })
      .min(0, { error: 'expected an integer >= 0 or null' })
      .nullable(),
    null,
    'DNS resolution attempts before giving up; `null` means forever.',
    'integer | null',
  ),
  ping_interval: intOption(0, 'Minutes between pings to the master; 0 disables.', { min: 0 }),

  // ── authentication ──────────────────────────────────────────────────────────────────────
  acceptance_wait_time: numberOption(10, 'Seconds between auth attempts while the key is pending.', {
    min: 0,
  }),
  acceptance_wait_time_max: numberOption(0, 'Upper bound of the auth back-off; 0 disables back-off.', {
    min: 0,
  }),
  random_reauth_delay: intOption(10, 'Upper bound of the random delay before re-authenticating.', { min: 0 }),
  auth_timeout: intOption(5, 'Seconds to wait for an auth reply.', { min: 1 }),
  auth_tries: intOption(7, 'Auth attempts per connection.', { min: 1 }),
  auth_safemode: boolOption(false, 'Never give up re-authenticating.'),
  rejected_retry: boolOption(false, 'Keep retrying when the master rejects the key.'),
  encryption_algorithm: enumOption(ENCRYPTION_ALGORITHMS, 'OAEP-SHA1', 'RSA encryption used in auth.'),
  signing_algorithm: enumOption(SIGNING_ALGORITHMS, 'PKCS1v15-SHA1', 'RSA signature used on requests.'),
  sign_pub_messages: boolOption(false, 'Require publications to carry a valid master signature.'),
  verify_master_pubkey_sign: boolOption(false, "Verify the master's signed public key in auth replies."),
  always_verify_signature: boolOption(
    false,
    'Verify the master pubkey signature on every auth, not only on change.',
  ),
  master_sign_key_name: stringOption('master_sign', 'Name of the master signing key in pki_dir.'),
  minion_sign_messages: boolOption(false, 'Sign the payloads the minion sends to the master.'),
  permissive_pki_access: boolOption(false, 'Allow group-writable pki directories.'),
  verify_env: boolOption(true, 'Check and create directories and their permissions at start-up.'),

  // ── channels and returns ────────────────────────────────────────────────────────────────
  request_channel_timeout: intOption(60, 'Seconds a request to the master waits for its reply.', { min: 1 }),
  request_channel_tries: intOption(3, 'Tries per request to the master.', { min: 1 }),
  return_retry_timer: intOption(5, 'Base seconds between return retries.', { min: 0 }),
  return_retry_timer_max: intOption(10, 'Upper bound of the randomised return retry delay.', { min: 0 }),
  return_retry_tries: intOption(3, 'Tries to deliver a return.', { min: 1 }),
  recon_default: numberOption(1000, 'Base ZeroMQ reconnect interval in ms.', { min: 0 }),
  recon_max: numberOption(10000, 'Maximum ZeroMQ reconnect interval in ms.', { min: 0 }),
  recon_randomize: boolOption(true, 'Randomise the reconnect interval between recon_default and recon_max.'),
  tcp_pub_port: portOption(4510, 'Minion event bus publish port when ipc_mode is tcp.'),
  tcp_pull_port: portOption(4511, 'Minion event bus pull port when ipc_mode is tcp.'),
  pub_ret: boolOption(true, 'Send job returns to the master.'),
  return: collectionOption(
    z
      .union([z.string(), z.array(z.string())], {
        error: 'expected a returner name, a comma list, or a list',
      })
      .transform((value) =>
        (typeof value === 'string' ? value.split(',') : value).map((s) => s.trim()).filter((s) => s !== ''),
      ),
    [],
    'Returners every job also returns to (comma list or list).',
    'string | list of strings',
  ),
  ext_job_cache: stringOption('', 'Returner the minion sends every return to as well.'),
  beacons: mappingOption("Beacons the minion runs: name → its config (Salt's list of one-key maps)."),
  beacons_dirs: stringListOption('Extra directories searched for beacons.', 'list of paths'),
  engines: collectionOption(
    z.array(
      z.union([z.string(), z.record(z.string(), z.unknown())], {
        error: 'expected an engine name or a `name: {options}` mapping',
      }),
      { error: 'expected a list of engines' },
    ),
    [],
    'Engines the minion runs, each in its own process (as the master does; their events go to the master).',
    'list of engines',
  ),
  engines_dirs: stringListOption('Extra directories searched for engines.', 'list of paths'),

  // ── execution ───────────────────────────────────────────────────────────────────────────
  multiprocessing: boolOption(true, 'Run each job in its own process.'),
  process_count_max: intOption(
    -1,
    'Most jobs running at once; the next waits for one to end. 0 or -1 means no limit.',
    {
      min: -1,
    },
  ),
  job_processes_max: intOption(
    0,
    'tsalt: most job processes (Node processes are ~60 MiB, not a cheap fork); past it jobs share the least busy one. 0 means one per core, at least 2.',
    { min: 0 },
  ),
  max_cmd_output_size: intOption(
    64 * 1024 * 1024,
    "tsalt: most bytes of a command's stdout, and of its stderr, that `cmd.*` keeps (Salt keeps all). The rest is dropped; the output then ends with a `VALUE_TRIMMED: ...` line, also in `warnings` of `cmd.run_all` and `cmd.script`. The retcode stays the command's.",
    { min: 1, max: 512 * 1024 * 1024 - 1024 },
  ),
  inline_functions: boolOption(
    true,
    "tsalt: run the built-in functions marked inline (test.ping, test.echo, test.arg, ...) in the minion's main process when the job has no returners. They return in microseconds; a job process round trip costs ~1 ms of CPU. False sends every job to a job process.",
  ),
  inline_modules: stringListOption(
    "tsalt: extension modules (from `<extension_modules>/modules`, `module_dirs` or `extensions` packages) whose functions marked inline may run in the minion's main process under the built-ins' rules: the job has no returners, and the module's file is named after it and declares no `virtual()`. A module named here that shadows a built-in one keeps the privilege; after a module sync that changed its folder it runs in a job process until the minion restarts. Empty: extension code always runs in a job process. `inline_functions: False` turns all inlining off. Trust only functions that are quick and never block: they run in the minion's own event loop.",
    'list of module names',
  ),
  minion_jid_queue_hwm: intOption(100, 'Recent jids remembered to drop duplicate publications.', { min: 1 }),
  loop_interval: numberOption(1, 'Seconds between runs of the minion main loop tasks.', { min: 0 }),
  cache_jobs: boolOption(false, 'Keep a local copy of job returns.'),
  grains: mappingOption('Static grains.'),
  grains_cache: boolOption(false, 'Cache grains on disk.'),
  grains_cache_expiration: intOption(300, 'Seconds the grains cache is valid.', { min: 0 }),
  grains_refresh_every: intOption(0, 'Minutes between grains refreshes; 0 disables.', { min: 0 }),
  grains_dirs: stringListOption('Extra directories searched for grains units.', 'list of paths'),
  returner_dirs: stringListOption('Extra directories searched for returners.', 'list of paths'),
  utils_dirs: stringListOption('Extra directories searched for utility units.', 'list of paths'),
  disable_modules: stringListOption('Execution modules that are never loaded.', 'list of names'),
  disable_returners: stringListOption('Returners that are never loaded.', 'list of names'),
  whitelist_modules: stringListOption('When not empty, only these execution modules load.', 'list of names'),
  enable_legacy_startup_events: boolOption(
    true,
    'Fire the legacy `minion_start` event besides `salt/minion/<id>/start`.',
  ),
  startup_states: stringOption('', 'States to run at start-up (`highstate`, `sls`, `top`); empty disables.'),
  schedule: mappingOption('The minion scheduler.'),
  random_startup_delay: intOption(0, 'Upper bound of a random delay before connecting.', { min: 0 }),
  file_client: enumOption(['remote', 'local'], 'remote', 'Where file and pillar data come from.'),
  cmd_safe: boolOption(true, 'Keep the `python_shell=False` default of `cmd` functions.'),
  sudo_user: stringOption('', 'Run execution functions through sudo as this user; empty disables.'),
  minion_id_caching: boolOption(true, 'Cache a generated minion id in `<config_dir>/minion_id`.'),
  minion_id_lowercase: boolOption(false, 'Lowercase a generated minion id.'),
  append_domain: nullableStringOption('Domain appended to the minion id.'),
  saltenv: nullableStringOption('Fixed salt environment for file and state calls.'),
});

/** What a minion config file (or `defineMinionConfig`) may contain. */
export type UserMinionConfig = z.input<typeof minionSchema> & MinionPluginOptions;

/** The minion schema's output, before paths are resolved and the result frozen. */
export type MinionSchemaOutput = z.output<typeof minionSchema>;
