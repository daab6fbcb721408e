/**
 * The reactor's error codes: a reaction file that cannot be read or rendered, a reaction that
 * cannot run, an event whose data is not a mapping.
 */
import { createError } from '../../kernel/index.js';

/** A reaction file named in `reactor:` that does not exist or cannot be read. */
export const SALT_ERR_REACTOR_FILE = createError(
  'SALT_ERR_REACTOR_FILE',
  (file: string, why: string) => `reaction file ${file}: ${why}`,
);
/** A reaction file whose template or YAML does not render (the line is 1-based; 0 when unknown). */
export const SALT_ERR_REACTOR_RENDER = createError(
  'SALT_ERR_REACTOR_RENDER',
  (file: string, line: number, message: string) =>
    line > 0 ? `${file}, line ${line}: ${message}` : `${file}: ${message}`,
);
/** A rendered reaction that cannot run: unknown kind or function, bad arguments, unsupported kind. */
export const SALT_ERR_REACTOR_REACTION = createError(
  'SALT_ERR_REACTOR_REACTION',
  (reaction: string, why: string) => `reaction ${reaction}: ${why}`,
);
/** An event matched a reactor glob but its data is not a mapping: nothing is rendered or run. */
export const SALT_ERR_REACTOR_DATA = createError(
  'SALT_ERR_REACTOR_DATA',
  (tag: string, what: string) => `event ${tag}: its data is ${what}, not a mapping; no reaction runs`,
);
