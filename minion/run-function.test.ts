import { describe, expect, it } from 'vitest';
import { pyTraceback } from './run-function.js';

describe("an unexpected exception in Salt's traceback form", () => {
  it('names the frame that threw, then the exception', () => {
    function exploding(): never {
      const err = new Error('boom');
      err.name = 'Exception';
      throw err;
    }
    let caught: unknown;
    try {
      exploding();
    } catch (err) {
      caught = err;
    }
    expect(pyTraceback(caught)).toMatch(
      /^Traceback \(most recent call last\):\n {2}File ".*run-function\.test\.ts", line \d+, in exploding\nException: boom$/,
    );
  });

  it('a thrown value that is not an Error', () => {
    expect(pyTraceback('nope')).toBe('Traceback (most recent call last):\nException: nope');
  });
});
