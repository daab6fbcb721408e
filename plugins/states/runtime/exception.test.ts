import { describe, expect, it } from 'vitest';
import { SALT_ERR_EXEC_COMMAND } from '../../../kernel/errors.js';
import { pythonError } from '../../../modules/_py-exception.js';
import { pyClassName, pyShortName, pyTraceback } from './exception.js';

describe("an unexpected exception in Salt's traceback form", () => {
  it('names the frame that threw, then the exception, with the newline Python ends it with', () => {
    function exploding(): never {
      throw pythonError('Exception', 'boom');
    }
    let caught: unknown;
    try {
      exploding();
    } catch (err) {
      caught = err;
    }
    expect(pyTraceback(caught)).toMatch(
      /^Traceback \(most recent call last\):\n {2}File ".*exception\.test\.ts", line \d+, in exploding\nException: boom\n$/,
    );
  });

  it('a thrown value that is not an Error', () => {
    expect(pyTraceback('nope')).toBe('Traceback (most recent call last):\nException: nope\n');
  });

  it('qualifies a class outside builtins as a traceback does; its short name is the last part', () => {
    const render = pythonError('salt.exceptions.SaltRenderError', 'bad');
    expect(pyClassName(render)).toBe('salt.exceptions.SaltRenderError');
    expect(pyShortName(render)).toBe('SaltRenderError');
    expect(pyTraceback(render)).toMatch(/\nsalt\.exceptions\.SaltRenderError: bad\n$/);
    expect(pyClassName(new SALT_ERR_EXEC_COMMAND('x'))).toBe('salt.exceptions.CommandExecutionError');
    expect(pyShortName(new Error('plain'))).toBe('Exception');
    expect(pyShortName(pythonError('ValueError', 'v'))).toBe('ValueError');
  });
});
