import { describe, expect, it } from 'vitest';
import { formatQuery, isTrue, quoteIdentifier, sqlLiteral, versionCmp } from './_mysql-sql.js';

describe("the mysql module's SQL text", () => {
  it("quotes identifiers as Salt's quote_identifier (Salt 3006.18's returns)", () => {
    expect(quoteIdentifier('foo`b%a_r')).toBe('`foo``b%%a_r`');
    expect(quoteIdentifier('foo_b%a', true)).toBe('`foo\\_b%%a`');
  });

  it('fills pyformat placeholders with escaped literals; %% is % with or without arguments', () => {
    expect(formatQuery('SELECT `a%%b`')).toBe('SELECT `a%b`');
    expect(
      formatQuery('SELECT %(a)s, %(b)s, %(c)s FROM `x%%y`', { a: 'it\'s \\ "q"\n\0', b: 5, c: null }),
    ).toBe(`SELECT 'it\\'s \\\\ \\"q\\"\\n\\0', 5, NULL FROM \`x%y\``);
    expect(() => formatQuery('SELECT %(missing)s', { a: 1 })).toThrow(
      expect.objectContaining({ code: 'SALT_ERR_INVOCATION' }),
    );
    expect(sqlLiteral('\x1a')).toBe("'\\Z'");
  });

  it("compares server versions by their numbers, and reads Salt's is_true", () => {
    expect(versionCmp('10.11.19-MariaDB-0+deb12u1', '10.4')).toBe(1);
    expect(versionCmp('8.0.11', '8.0.11')).toBe(0);
    expect(versionCmp('5.7.44-log', '8.0.11')).toBe(-1);
    expect([true, 1, '1', 'True', 'true'].map(isTrue)).toEqual([true, true, true, true, true]);
    expect([false, 0, '0', 'yes', null, 'False'].map(isTrue)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});
