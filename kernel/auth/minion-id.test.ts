import { describe, expect, it } from 'vitest';
import { isValidMinionId } from './minion-id.js';

describe('isValidMinionId', () => {
  it('takes plain ids, dots and unicode included', () => {
    for (const id of ['web1', 'web1.example.com', 'a b', 'münchen-1', '...x'])
      expect(isValidMinionId(id), id).toBe(true);
  });
  it('refuses what cannot name a key file', () => {
    for (const id of ['', '.', '..', 'a/b', 'a\\b', 'a\0b', 'x'.repeat(256), 42, undefined])
      expect(isValidMinionId(id), String(id)).toBe(false);
  });
  it('refuses control characters (stricter than Salt): CR, LF, tab, ESC, DEL, C1', () => {
    for (const id of ['a\r\nb', 'a\nb', 'a\tb', 'a\x1b[31mb', 'a\x7fb', 'a\x85b'])
      expect(isValidMinionId(id), JSON.stringify(id)).toBe(false);
  });
});
