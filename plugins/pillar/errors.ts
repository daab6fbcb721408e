/**
 * The pillar plugin's error codes (docs/errors.md, "Pillar"). Messages name files, lines and
 * option names, never pillar values.
 */
import { createError } from '../../kernel/index.js';

/** A pillar file that does not render: the renderer's message (file, line, column, the line, the include chain). */
export const PILLAR_ERR_RENDER = createError('PILLAR_ERR_RENDER', (where: string) => where);

/** A malformed git_pillar remote in `ext_pillar` (reported in `_errors`; the other sources still run). */
export const PILLAR_ERR_GIT_REMOTE = createError(
  'PILLAR_ERR_GIT_REMOTE',
  (remote: string, why: string) => `git_pillar remote '${remote}': ${why}`,
);
