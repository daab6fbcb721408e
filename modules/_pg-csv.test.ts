import { describe, expect, it } from 'vitest';
import { csvRecords, parseCsv } from './_pg-csv.js';

describe('COPY ... CSV HEADER as Python csv.reader reads it', () => {
  it('quotes, doubled quotes, commas and newlines inside quotes, empty fields', () => {
    expect(parseCsv('a,b,c\n1,"x,""y""",\n"multi\nline",,z\n')).toEqual([
      ['a', 'b', 'c'],
      ['1', 'x,"y"', ''],
      ['multi\nline', '', 'z'],
    ]);
  });
  it('records keyed by the header, blank lines skipped', () => {
    expect(csvRecords('name,acl\npublic,"{a=UC/a,=U/a}"\n\nx,\n')).toEqual([
      { name: 'public', acl: '{a=UC/a,=U/a}' },
      { name: 'x', acl: '' },
    ]);
  });
});
