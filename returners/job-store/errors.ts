/** The embedded job store's error codes. */
import { createError } from '../../kernel/index.js';

/** The embedded job store (`returners/job-store`) could not open, read or write its database file. */
export const SALT_ERR_JOB_STORE = createError(
  'SALT_ERR_JOB_STORE',
  (path: string, why: string) => `job store ${path}: ${why}`,
);
/** The job store's file is damaged and `job_store.on_corrupt` is `refuse`: it is left as it is. */
export const SALT_ERR_JOB_STORE_CORRUPT = createError(
  'SALT_ERR_JOB_STORE_CORRUPT',
  (path: string, why: string) =>
    `job store ${path} is corrupt (${why}) and job_store.on_corrupt is "refuse": it was left as it is; move it aside or restore it from a backup, or set job_store.on_corrupt to "move_aside"`,
);
