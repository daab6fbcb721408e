import { describe, expect, it } from 'vitest';
import { crypttabMatches, formatCrypttabLine, parseCrypttabLine } from './_crypttab.js';

describe('crypttab lines as Salt reads and writes them', () => {
  it('reads four fields, or three with empty options; comments and other shapes are no entry', () => {
    expect(parseCrypttabLine('cr1 /dev/sdb1 none')).toEqual({
      name: 'cr1',
      device: '/dev/sdb1',
      password: 'none',
      options: '',
    });
    expect(parseCrypttabLine('cr2\tUUID=x  /k luks,discard\n')?.options).toBe('luks,discard');
    expect(parseCrypttabLine('# cr1 /dev/sdb1 none luks')).toBeUndefined();
    expect(parseCrypttabLine('bad line')).toBeUndefined();
    expect(parseCrypttabLine('a b c d e')).toBeUndefined();
  });
  it("writes Salt's padded columns and matches partial criteria", () => {
    const e = { name: 'cr1', device: '/dev/sdb1', password: 'none', options: 'luks' };
    expect(formatCrypttabLine(e)).toBe(
      'cr1          /dev/sdb1                                    none                   luks\n',
    );
    expect(crypttabMatches({ device: '/dev/sdb1' }, e)).toBe(true);
    expect(crypttabMatches({ name: 'cr1', options: '' }, e)).toBe(false);
  });
});
