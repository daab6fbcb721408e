import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The golden vectors produced by real Salt 3006.18: `../shared/salt-vectors` beside the repo. */
export const VECTORS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../../shared/salt-vectors');

if (!existsSync(VECTORS_DIR)) {
  throw new Error(`Salt golden vectors not found at ${VECTORS_DIR}: shared/ must sit beside the repository`);
}
