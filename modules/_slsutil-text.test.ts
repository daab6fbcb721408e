import { describe, expect, it } from 'vitest';
import { banner, boolstr, center, wrap } from './_slsutil-text.js';

const defaults = { width: 72, commentchar: '#', borderchar: '#', newline: false };

describe("slsutil.banner and boolstr (Salt 3006.18's answers)", () => {
  it('wraps and centres the default title and text in the comment frame', () => {
    expect(banner({ ...defaults, width: 40 })).toBe(
      [
        '########################################',
        '#                                      #',
        '#  THIS FILE IS MANAGED BY SALT - DO   #',
        '#               NOT EDIT               #',
        '#                                      #',
        '# The contents of this file are        #',
        '# managed by Salt. Any changes to this #',
        '# file may be overwritten              #',
        '# automatically and without warning.   #',
        '########################################',
      ].join('\n'),
    );
  });

  it('takes a multi-character comment mark, a border and block delimiters', () => {
    const out = banner({
      ...defaults,
      width: 31,
      commentchar: '/*',
      borderchar: '*',
      blockstart: '<!--',
      blockend: '-->',
    });
    expect(out.split('\n').slice(0, 4)).toEqual([
      '<!--',
      '/****************************/*',
      '/*                           /*',
      '/*  THIS FILE IS MANAGED BY  /*',
    ]);
    expect(out.endsWith('/****************************/*\n-->')).toBe(true);
    expect(() => banner({ ...defaults, width: 4 })).toThrow('Width is too small to render banner');
  });

  it("wraps as Python's textwrap (long words broken, a space kept before one) and centres as str.center", () => {
    expect(wrap('a bb a ccc MANAGED bb ffffffffffffffffffffffffffffff a', 22)).toEqual([
      'a bb a ccc MANAGED bb ',
      'ffffffffffffffffffffff',
      'ffffffff a',
    ]);
    expect(center('bb', 3)).toBe(' bb');
    expect(center('bb', 5)).toBe('  bb ');
    expect(center('D', 3)).toBe(' D ');
  });

  it('boolstr answers by Python truthiness', () => {
    expect(boolstr([], 'yes', 'no')).toBe('no');
    expect(boolstr('x', 'on', 'off')).toBe('on');
    expect(boolstr(0, 'true', 'false')).toBe('false');
  });
});
