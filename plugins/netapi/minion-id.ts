/**
 * Minion ids the REST API takes from a client (`/minions/<id>`, `/keys/<id>`, `POST /keys`
 * `mid`): the kernel's rule (kernel/auth/minion-id.ts), refused with a 400 that says it.
 */
import { isValidMinionId } from '../../kernel/util.js';
import { NETAPI_ERR_BAD_MINION_ID } from './errors.js';

/** `value` as a minion id; throws NETAPI_ERR_BAD_MINION_ID (400) when it is not one. */
export function requireMinionId(value: unknown): string {
  if (isValidMinionId(value)) return value;
  throw new NETAPI_ERR_BAD_MINION_ID(typeof value === 'string' ? value : String(value));
}
