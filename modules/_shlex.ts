/**
 * Python's `shlex.split(s)` in POSIX mode (no comments), which Salt uses to turn a command
 * string into argv when no shell runs it.
 */
import { SALT_ERR_EXEC_COMMAND } from '../kernel/errors.js';

const WHITESPACE = ' \t\r\n';

const isQuote = (s: string): boolean => s === '"' || s === "'";

/**
 * Splits `s` like `shlex.split`: single quotes are literal, backslash escapes anything
 * outside quotes and only `"` and `\` inside double quotes, `""` yields an empty word.
 * Throws `SALT_ERR_EXEC_COMMAND` with Python's messages on an unclosed quote or a trailing backslash.
 * @example shlexSplit(`echo "a b" 'c'`) // ['echo', 'a b', 'c']
 */
export function shlexSplit(s: string): string[] {
  const words: string[] = [];
  let token = '';
  let quoted = false;
  let state: ' ' | 'a' | "'" | '"' | '\\' = ' ';
  let escapedState: ' ' | 'a' | "'" | '"' = 'a';
  for (const ch of s) {
    switch (state) {
      case ' ':
      case 'a':
        if (WHITESPACE.includes(ch)) {
          if (state === 'a' || quoted) words.push(token);
          token = '';
          quoted = false;
          state = ' ';
        } else if (ch === '\\') {
          escapedState = 'a';
          state = '\\';
        } else if (ch === "'" || ch === '"') {
          quoted = true;
          state = ch;
        } else {
          token += ch;
          state = 'a';
        }
        break;
      case "'":
      case '"':
        if (ch === state) state = 'a';
        else if (ch === '\\' && state === '"') {
          escapedState = state;
          state = '\\';
        } else token += ch;
        break;
      case '\\':
        if (isQuote(escapedState) && ch !== escapedState && ch !== '\\') token += '\\';
        token += ch;
        state = escapedState;
        break;
    }
  }
  if (state === "'" || state === '"') throw new SALT_ERR_EXEC_COMMAND('No closing quotation');
  if (state === '\\') throw new SALT_ERR_EXEC_COMMAND('No escaped character');
  if (state === 'a' || quoted) words.push(token);
  return words;
}

/** Python's `shlex.quote`: `s` as one word for a POSIX shell. */
export function shlexQuote(s: string): string {
  if (s === '') return "''";
  // \w is ASCII here (no u flag), as Python's re.ASCII
  if (/^[\w@%+=:,./-]+$/.test(s)) return s;
  return `'${s.replace(/'/g, `'"'"'`)}'`;
}
