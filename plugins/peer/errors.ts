/**
 * The peer plugin's error codes (docs/errors.md, "PEER"). A refused or malformed peer request
 * never stops the master: the minion gets Salt's answer (`{}`) and the master log says why.
 */
import { createError } from '../../kernel/index.js';

/** A minion asked to publish, or to run a runner, that the master's `peer`/`peer_run` does not allow. */
export const PEER_ERR_DENIED = createError(
  'PEER_ERR_DENIED',
  (cmd: string, id: string, fun: string) => `${cmd} refused: minion ${id} may not run ${fun}`,
);

/** A peer request whose load lacks its keys or carries values of the wrong kind. */
export const PEER_ERR_LOAD = createError(
  'PEER_ERR_LOAD',
  (cmd: string, why: string) => `malformed ${cmd} load: ${why}`,
);
