/**
 * The mine plugin's error codes (docs/errors.md, "MINE"). A bad mine request never stops the
 * master: it gets Salt's answer for it and the master log says why, with the code.
 */
import { createError } from '../../kernel/index.js';

/** A mine request whose load is malformed (missing keys, `data` not a mapping, `fun` not a string or list). */
export const MINE_ERR_LOAD = createError(
  'MINE_ERR_LOAD',
  (cmd: string, why: string) => `malformed ${cmd} load: ${why}`,
);

/** A `mine_get` ACL pattern that is not a valid regular expression (it matches nothing). */
export const MINE_ERR_ACL_PATTERN = createError(
  'MINE_ERR_ACL_PATTERN',
  (pattern: string) =>
    `mine_get pattern ${JSON.stringify(pattern)} is not a valid regular expression; it matches nothing`,
);
