/** The runner process's own error codes (a runner's expected failures are the kernel's `SALT_ERR_RUNNER`). */
import { createError } from '../../kernel/index.js';

/** A runner ran past the time its client allowed (`salt-run -t`) and was stopped. */
export const SALT_ERR_RUNNER_TIMEOUT = createError(
  'SALT_ERR_RUNNER_TIMEOUT',
  (fun: string, seconds: number) => `runner ${fun} did not finish within ${seconds} s and was stopped`,
);
/** The process running a runner died before it returned. */
export const SALT_ERR_RUNNER_CRASHED = createError(
  'SALT_ERR_RUNNER_CRASHED',
  (fun: string, why: string) => `the process running runner ${fun} died: ${why}`,
);
