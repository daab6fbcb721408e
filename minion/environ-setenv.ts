/**
 * Salt's minion handling of the `environ_setenv` event (`environ.setenv update_minion=True`
 * fires it on the minion's own bus): the minion process sets the variables in its own
 * environment, as `environ.setenv` does in a job's, so later jobs see them.
 */
import { setEnvValues } from '../modules/_environ-rules.js';

/** The tag `environ.setenv update_minion=True` fires on the minion's bus. */
export const ENVIRON_SETENV_TAG = 'environ_setenv';

/**
 * Applies the event's `environ` to `env` with Salt's `setenv` rules (modules/_environ-rules.ts).
 * False, and nothing after the bad value changed, when `environ` is not a map or holds a value
 * that is neither a string nor False.
 */
export function applyEnvironSetenv(
  data: Readonly<Record<string, unknown>>,
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  return setEnvValues(env, data.environ, data.false_unsets === true, data.clear_all === true) !== false;
}
