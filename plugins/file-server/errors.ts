/**
 * The file server's error codes (Salt raises `SaltClientError`/`MinionError` or logs, with
 * free text): each names what was refused and why.
 */
import { createError } from '../../kernel/index.js';

export const SALT_ERR_FILESERVER_OPTIONS = createError(
  'SALT_ERR_FILESERVER_OPTIONS',
  (detail: string) => `invalid file server option ${detail}`,
);

export const SALT_ERR_FILESERVER_PATH_REFUSED = createError(
  'SALT_ERR_FILESERVER_PATH_REFUSED',
  (path: string, why: string) => `refused to serve ${JSON.stringify(path)}: ${why}`,
);

export const SALT_ERR_FILESERVER_BACKEND = createError(
  'SALT_ERR_FILESERVER_BACKEND',
  (name: string) => `unknown fileserver_backend "${name}" (no backend of that name is registered)`,
);

export const SALT_ERR_GITFS_REMOTE = createError(
  'SALT_ERR_GITFS_REMOTE',
  (url: string, detail: string) => `gitfs remote ${url}: ${detail}`,
);

export const SALT_ERR_FILE_RECV = createError(
  'SALT_ERR_FILE_RECV',
  (id: string, detail: string) => `file push from minion ${id} refused: ${detail}`,
);
