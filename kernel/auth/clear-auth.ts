/**
 * Who may call the `runner` and `wheel` clear commands: a client holding a user key
 * (`<cachedir>/.<user>_key`), checked as `publish` checks it. eauth and tokens are not
 * supported yet and get a clear refusal.
 */
import { timingSafeEqual } from 'node:crypto';

export interface ClearAuthError {
  error: { name: string; message: string };
}

/** Constant-time comparison of the given key with each valid user key. */
export function userKeyMatches(given: unknown, valid: readonly string[]): boolean {
  if (typeof given !== 'string') return false;
  const g = Buffer.from(given);
  return valid.some((k) => {
    const v = Buffer.from(k);
    return v.length === g.length && timingSafeEqual(v, g);
  });
}

/**
 * The caller's user name when the load's key is valid, or Salt's error reply. `user`
 * in the load names who asked (as the `salt` CLI sends it); default `root`.
 */
export function checkClearAuth(
  load: Readonly<Record<string, unknown>>,
  validKeys: readonly string[],
): { user: string } | ClearAuthError {
  if (load.key === undefined && (load.eauth !== undefined || load.token !== undefined)) {
    return {
      error: {
        name: 'EauthAuthenticationError',
        message: 'eauth and token authentication are not supported yet by tsalt: use the local user key',
      },
    };
  }
  if (!userKeyMatches(load.key, validKeys)) {
    return { error: { name: 'AuthenticationError', message: 'Authentication error occurred.' } };
  }
  const user = typeof load.user === 'string' && load.user ? load.user : 'root';
  return { user };
}
