/**
 * A state function that throws, as Salt reports it (`salt/state.py` `State.call`): result
 * false and the comment `An exception occurred in this state: ` followed by a Python-style
 * traceback whose last line is the exception's class and message. tsalt's coded errors get
 * the Salt class they stand for (`SALT_ERR_INVOCATION` is `salt.exceptions.SaltInvocationError`).
 */
import { SaltError } from '../../../kernel/errors.js';
import { pyTracebackOf } from '../../../modules/_py-exception.js';

const SALT_CLASSES: Readonly<Record<string, string>> = {
  SALT_ERR_INVOCATION: 'salt.exceptions.SaltInvocationError',
  SALT_ERR_EXEC_COMMAND: 'salt.exceptions.CommandExecutionError',
  SALT_ERR_EXEC_TIMEOUT: 'salt.exceptions.CommandExecutionError',
  SALT_ERR_LOADER_NOT_AVAILABLE: 'KeyError',
};

/**
 * The Python class name an error stands for, qualified as a traceback's last line has it
 * (`salt.exceptions.CommandExecutionError`; a built-in such as `ValueError` bare). An error
 * made by `pythonError` carries it as its `name`.
 */
export function pyClassName(err: Error): string {
  if (err instanceof SaltError) return SALT_CLASSES[err.code] ?? `salt.exceptions.SaltException`;
  if (err.name === 'Error') return 'Exception';
  return err.name;
}

/** The class's own name (Python's `__name__`): `CommandExecutionError`, `ValueError`. */
export function pyShortName(err: Error): string {
  return pyClassName(err).split('.').pop() ?? 'Exception';
}

/** Python's traceback text of an error: the frame that threw, then `Class: message`. */
export function pyTraceback(err: unknown): string {
  if (!(err instanceof Error)) return `Traceback (most recent call last):\nException: ${String(err)}\n`;
  return pyTracebackOf(err, pyClassName(err));
}

/** The comment of a state that threw `err`. */
export function exceptionComment(err: unknown): string {
  return `An exception occurred in this state: ${pyTraceback(err)}`;
}
