/**
 * The sdb error codes. A strict `sdb.get` of a bad URI or an unknown profile is Salt's
 * `SaltInvocationError` (the kernel's SALT_ERR_INVOCATION); these are the driver-side failures,
 * where Salt 3006 crashes with a bare `KeyError` or `NotImplemented`.
 */
import { createError } from '../../kernel/index.js';

/** A profile names a driver no source provides, or a driver lacks the function (`set`, `delete`). */
export const SALT_ERR_SDB_UNAVAILABLE = createError(
  'SALT_ERR_SDB_UNAVAILABLE',
  (fun: string, why: string) => `'${fun}' is not available: ${why}`,
);
/** A driver refuses the call: a read-only store (yaml's `set`), a value of the wrong type. */
export const SALT_ERR_SDB_VALUE = createError('SALT_ERR_SDB_VALUE', (message: string) => message);
