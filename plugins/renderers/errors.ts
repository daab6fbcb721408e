/**
 * The renderers' error codes (Salt's `SaltRenderError`), each message naming the file, line and
 * column, the offending line and the chain of includes that led there (where.ts formats them).
 */
import { createError } from '../../kernel/index.js';

/** A syntax error in a template or YAML/JSON document. */
export const SALT_ERR_RENDER_SYNTAX = createError('SALT_ERR_RENDER_SYNTAX', (where: string) => where);
/** A template that fails while rendering: undefined name, bad call, failed `salt[...]`. */
export const SALT_ERR_RENDER_FAILED = createError('SALT_ERR_RENDER_FAILED', (where: string) => where);
/** A render stopped by a bound: time, depth, loop iterations, output size, YAML aliases. */
export const SALT_ERR_RENDER_LIMIT = createError('SALT_ERR_RENDER_LIMIT', (where: string) => where);
/** A `#!` line naming a renderer that is not registered, or an empty pipeline. */
export const SALT_ERR_RENDER_UNKNOWN = createError(
  'SALT_ERR_RENDER_UNKNOWN',
  (path: string, name: string, known: string) =>
    `${path}: unknown renderer '${name}' in the #! line (known: ${known})`,
);
/** An imported or included file that cannot be found or loaded. */
export const SALT_ERR_RENDER_MISSING = createError('SALT_ERR_RENDER_MISSING', (where: string) => where);
/** gpg failed to decrypt a PGP message. */
export const SALT_ERR_RENDER_GPG = createError('SALT_ERR_RENDER_GPG', (where: string) => where);
/** A secret the nacl or pass renderer could not fetch or decrypt. */
export const SALT_ERR_RENDER_SECRET = createError('SALT_ERR_RENDER_SECRET', (where: string) => where);
