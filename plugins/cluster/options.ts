/**
 * The cluster's options, declared by the cluster plugin: Salt 3007's `cluster_id`,
 * `cluster_peers`, `cluster_pki_dir` and `cluster_pool_port`, and tsalt's `cluster_backend`
 * (where the shared state lives) with its PostgreSQL connection, in the `postgres` returner's
 * style (`host`, `port`, `user`, `pass`, `db`, ...).
 */
import { z } from 'zod';
import {
  boolOption,
  collectionOption,
  defineOptions,
  enumOption,
  intOption,
  nullableStringOption,
  numberOption,
  type OptionsInput,
  stringListOption,
} from '../../kernel/index.js';

export const clusterOptions = defineOptions('master', {
  cluster_id: nullableStringOption(
    "The cluster's name; set, the master runs as one of a cluster (docs/cluster.md). Every master of a cluster has the same `cluster_id`.",
  ),
  cluster_peers: stringListOption(
    'The other masters of the cluster: their addresses (`host` or `host:port`, the port defaulting to `cluster_pool_port`). Messages from any other address are refused.',
    'list of addresses',
  ),
  cluster_pki_dir: nullableStringOption(
    "The cluster's key folder: `cluster.key`, the secret every peer signs its messages with (made by the first master when absent; copy it to every master, or share the folder). Default: `<pki_dir>/cluster`.",
    'path | null',
  ),
  cluster_pool_port: intOption(
    4520,
    'The port the masters of a cluster talk to each other on (bound on `interface`).',
    {
      min: 1,
      max: 65535,
    },
  ),
  cluster_backend: enumOption(
    ['filesystem', 'postgres'],
    'filesystem',
    'Where the shared state lives: `filesystem` (nothing is copied: minion keys are shared only when `pki_dir` itself is on shared storage, as in Salt 3007) or `postgres` (minion keys and their states in PostgreSQL, no shared filesystem).',
  ),
  cluster_postgres: collectionOption(
    z.record(z.string(), z.unknown(), { error: 'expected a mapping of connection options' }).nullable(),
    null,
    "The PostgreSQL connection of `cluster_backend: postgres`, with the `postgres` returner's keys (`host`, `port`, `user`, `pass`, `db`, `sslmode`, ...). Unset: the `postgres` block the returner reads.",
    'mapping | null',
  ),
  cluster_sync_interval: numberOption(
    1,
    'Seconds between two reads of the shared key states (a change is also pushed at once with LISTEN/NOTIFY).',
    { min: 0.1 },
  ),
  cluster_peer_timeout: intOption(
    10,
    'Seconds a peer message may be old (clock skew included) before it is refused as a replay.',
    { min: 1 },
  ),
});

declare module '../../kernel/config/option-set.js' {
  interface MasterPluginOptions extends OptionsInput<typeof clusterOptions> {}
}

/** The minion's side of a cluster: Salt's failover options beyond `master_alive_interval` (the kernel's). */
export const clusterMinionOptions = defineOptions('minion', {
  master_failback: boolOption(
    false,
    'With `master_type: failover`: go back to the first master of the list once it answers again.',
  ),
  master_failback_interval: intOption(
    0,
    'Seconds between checks of the first master while failed over; 0 means `master_alive_interval`.',
    { min: 0 },
  ),
});

declare module '../../kernel/config/option-set.js' {
  interface MinionPluginOptions extends OptionsInput<typeof clusterMinionOptions> {}
}
