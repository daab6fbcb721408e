/**
 * The `mysql` module's own error code: a name it must paste into SQL unquoted (a database or
 * table with `escape=False`, a grant's column list, an SSL option) that holds characters which
 * could end the statement or open a new one. Salt 3006 pastes such names as they are.
 */
import { createError } from '../kernel/index.js';

/** A name or grant part that would break out of its place in the SQL text. */
export const SALT_ERR_MYSQL_IDENTIFIER = createError(
  'SALT_ERR_MYSQL_IDENTIFIER',
  (what: string, value: string) =>
    `Refusing ${what} ${JSON.stringify(value)}: it holds characters that would break out of its place in the SQL statement`,
);
