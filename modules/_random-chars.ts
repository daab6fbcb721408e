/**
 * Python's `string` character classes and Salt's `salt.utils.pycrypto.secure_password`
 * (random ASCII characters drawn from the allowed set), and a crypt(3) salt as `crypt.mksalt` makes.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';

export const ASCII_LOWERCASE = 'abcdefghijklmnopqrstuvwxyz';
export const ASCII_UPPERCASE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
export const DIGITS = '0123456789';
export const PUNCTUATION = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';
export const WHITESPACE = ' \t\n\r\x0b\x0c';
export const PRINTABLE = DIGITS + ASCII_LOWERCASE + ASCII_UPPERCASE + PUNCTUATION + WHITESPACE;

export interface PasswordOptions {
  length?: number;
  chars?: string | null;
  lowercase?: boolean;
  uppercase?: boolean;
  digits?: boolean;
  punctuation?: boolean;
  whitespace?: boolean;
  printable?: boolean;
}

/** Salt's `secure_password`: `length` characters, each drawn uniformly from the allowed ASCII set. */
export function securePassword(o: PasswordOptions = {}): string {
  let chars = o.chars ?? '';
  if (o.printable) chars = PRINTABLE;
  if (!chars) {
    if (o.lowercase ?? true) chars += ASCII_LOWERCASE;
    if (o.uppercase ?? true) chars += ASCII_UPPERCASE;
    if (o.digits ?? true) chars += DIGITS;
    if (o.punctuation ?? true) chars += PUNCTUATION;
    if (o.whitespace ?? false) chars += WHITESPACE;
  }
  const allowed = [...new Set([...chars].filter((c) => c.charCodeAt(0) < 128))];
  const length = o.length ?? 20;
  if (length > 0 && allowed.length === 0) {
    throw new SALT_ERR_EXEC_COMMAND('no ASCII character to draw a password from');
  }
  let pw = '';
  while (pw.length < length) pw += allowed[randomInt(allowed.length)];
  return pw;
}

const SALT_CHARS = `./${DIGITS}${ASCII_UPPERCASE}${ASCII_LOWERCASE}`;

/** A random crypt(3) salt of `n` characters from `[./0-9A-Za-z]`. */
export function cryptSalt(n: number): string {
  return [...randomBytes(n)].map((b) => SALT_CHARS[b % 64]).join('');
}
