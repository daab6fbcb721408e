/**
 * The cluster plugin's error codes (docs/errors.md, "CLUSTER"). A bad peer never stops a master:
 * its message is refused and the log says why, with the code; a bad cluster config stops the
 * master at its start.
 */
import { createError } from '../../kernel/index.js';

/** `cluster.key` in `cluster_pki_dir` is not a key this plugin wrote (wrong size, not base64). */
export const CLUSTER_ERR_KEY = createError(
  'CLUSTER_ERR_KEY',
  (path: string, why: string) => `the cluster key ${path} is unusable: ${why}`,
);

/** A `cluster_peers` entry that is not `host` or `host:port`. */
export const CLUSTER_ERR_PEER_ADDRESS = createError(
  'CLUSTER_ERR_PEER_ADDRESS',
  (entry: string) => `cluster_peers entry ${JSON.stringify(entry)} is not a host or host:port`,
);

/** A peer message refused: an address outside `cluster_peers`, a bad signature, a replay, another cluster. */
export const CLUSTER_ERR_PEER_REFUSED = createError(
  'CLUSTER_ERR_PEER_REFUSED',
  (from: string, why: string) => `cluster peer message from ${from} refused: ${why}`,
);

/** Two masters of one cluster with the same `id`. */
export const CLUSTER_ERR_DUPLICATE_ID = createError(
  'CLUSTER_ERR_DUPLICATE_ID',
  (id: string, other: string) =>
    `another master of the cluster already uses the id ${JSON.stringify(id)} (${other}): give every master its own id`,
);

/** The cluster's PostgreSQL could not be used (the master keeps serving; key changes wait). */
export const CLUSTER_ERR_BACKEND = createError(
  'CLUSTER_ERR_BACKEND',
  (where: string, why: string) => `the cluster backend ${where} failed: ${why}`,
);
