import { describe, expect, it } from 'vitest';
import { RETURNS } from './fixtures.js';
import { newlineValuesOnlyOutputter, renderNewlineValuesOnly } from './newline-values-only.js';

// Expected strings are what Salt 3006.18's salt/output/newline_values_only.py prints.
const nvo = (data: unknown) => renderNewlineValuesOnly(data, { color: false });

describe('newline_values_only outputter', () => {
  it('prints the values without minion ids', () => {
    expect(nvo({ myminion: ['127.0.0.1', '10.0.0.1'], 'second-minion': ['127.0.0.1', '10.0.0.2'] })).toBe(
      '127.0.0.1\n10.0.0.1\n127.0.0.1\n10.0.0.2',
    );
    expect(nvo({ myminion: 8, 'second-minion': 10 })).toBe('8\n10');
  });

  it('prints each value with Python str()', () => {
    expect(nvo(RETURNS.bool)).toBe('True');
    expect(nvo(RETURNS.none)).toBe('None');
    expect(nvo(RETURNS.multiline)).toBe('hi\nthere');
    expect(nvo(RETURNS.nested)).toBe(
      "{'foo': {'bar': 'baz', 'dictionary': {'abc': 123, 'def': 456}, 'list': ['Hello', 'World']}}",
    );
    expect(nvo(RETURNS.listNested)).toBe("1\n[2, 3]\n{'a': 'b'}\nmulti\nline");
    expect(nvo(RETURNS.empty)).toBe('{}');
    expect(nvo(RETURNS.tricky)).toBe("yes\n1.0\n\na: b\nit's\n- x\n~\ntrail \n2024-01-01\ntab\there");
  });

  it('falls back to nested output for data that is not a dict, as Salt does', () => {
    expect(newlineValuesOnlyOutputter.render(false, { color: false })).toBe('False');
    expect(nvo(['a', 'b'])).toBe('- a\n- b');
  });
});
