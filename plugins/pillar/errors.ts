/**
 * The pillar plugin's error codes (docs/errors.md, "Pillar"). Messages name files, lines and
 * option names, never pillar values.
 */
import { createError } from '../../kernel/index.js';

export const PILLAR_ERR_RENDER = createError(
  'PILLAR_ERR_RENDER',
  (path: string, line: number, col: number, reason: string) =>
    `${path}, line ${line}, column ${col}: ${reason}`,
);
export const PILLAR_ERR_EXT = createError(
  'PILLAR_ERR_EXT',
  (name: string, reason: string) => `ext_pillar ${name}: ${reason}`,
);
