/**
 * Salt's minion handling of the `environ_setenv` event (`environ.setenv update_minion=True`
 * fires it on the minion's own bus): the minion process sets the variables in its own
 * environment, as `environ.setenv` does in a job's, so later jobs see them.
 */

/** The tag `environ.setenv update_minion=True` fires on the minion's bus. */
export const ENVIRON_SETENV_TAG = 'environ_setenv';

const isMap = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Applies the event's `environ` to `env` with Salt's `setenv` rules: a string sets, False sets
 * '' (or unsets, with `false_unsets`), `clear_all` first clears every key not named. False,
 * and nothing after the bad value changed, when `environ` is not a map or holds another value.
 */
export function applyEnvironSetenv(
  data: Readonly<Record<string, unknown>>,
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  const environ = data.environ;
  if (!isMap(environ)) return false;
  const unset = (key: string): void => {
    if (data.false_unsets === true) delete env[key];
    else env[key] = '';
  };
  if (data.clear_all === true)
    for (const key of Object.keys(env)) if (!Object.hasOwn(environ, key)) unset(key);
  for (const [key, val] of Object.entries(environ)) {
    if (val === false) unset(key);
    else if (typeof val === 'string') env[key] = val;
    else return false;
  }
  return true;
}
