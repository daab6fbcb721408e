/** The 8 random characters Python's `tempfile` puts in a temporary file's name. */
import { randomInt } from 'node:crypto';

const LETTERS = 'abcdefghijklmnopqrstuvwxyz0123456789_';

export const randomName = (): string =>
  Array.from({ length: 8 }, () => LETTERS[randomInt(LETTERS.length)]).join('');
