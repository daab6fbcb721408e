import { describe, expect, it } from 'vitest';
import { parseSearch, receiveMessages, shapeFound } from './_gpg-keyserver.js';
import { statusLines } from './_gpg-run.js';

describe('gpg keyserver answers (python-gnupg SearchKeys and ImportResult)', () => {
  it('reads pub and uid lines of a --search-keys listing, uids unescaped', () => {
    const keys = parseSearch(
      [
        'info:1:2',
        'pub:B2BE83489278330AB51178F47595CFD70650D1B9:1:2048:1795959549::',
        'uid:Al\\x3aice <a@x>:1795959549::',
        'uid:second:1795959549::',
        'pub:42803BE0081CC4D9:1:4096:1795959557:1859031557:',
        '',
        'uid:%20kept%20as%20sent::::',
      ].join('\n'),
    );
    expect(keys).toEqual([
      {
        keyid: 'B2BE83489278330AB51178F47595CFD70650D1B9',
        length: '2048',
        date: '1795959549',
        expires: '',
        uids: ['Al:ice <a@x>', 'second'],
      },
      {
        keyid: '42803BE0081CC4D9',
        length: '4096',
        date: '1795959557',
        expires: '1859031557',
        uids: ['%20kept%20as%20sent'],
      },
    ]);
  });

  it('shapes a key as search_keys returns it: dates local, empty fields left out', () => {
    const [k] = parseSearch('pub:AB:1:2048:1795959549:1859031557:\n');
    const shaped = shapeFound(k as NonNullable<typeof k>);
    expect(Object.keys(shaped)).toEqual(['keyid', 'uids', 'expires', 'created', 'keyLength']);
    expect(shaped.created).toMatch(/^2026-11-(28|29|30)$/);
    expect(shapeFound({ keyid: 'AB', length: '', date: '', expires: '', uids: [] })).toEqual({
      keyid: 'AB',
      uids: [],
    });
  });

  it("fails as Salt does on a field that is no number (a short pub line's 'unavailable')", () => {
    const [k] = parseSearch('pub:AB\n');
    expect(() => shapeFound(k as NonNullable<typeof k>)).toThrow(
      "could not convert string to float: 'unavailable'",
    );
  });

  it('says, per key, added, already there or unable; other import reasons say nothing', () => {
    const st = statusLines(
      [
        'gpg: key 52C80ABD6E1254A2: public key "bob" imported',
        '[GNUPG:] KEY_CONSIDERED 4D4B 0',
        '[GNUPG:] IMPORTED 52C80ABD6E1254A2 bob',
        '[GNUPG:] IMPORT_OK 1 4D4B',
        '[GNUPG:] IMPORT_OK 0 B2BE',
        '[GNUPG:] IMPORT_OK 4 C0FF',
        '[GNUPG:] FAILURE recv-keys 167772218',
        '[GNUPG:] IMPORT_RES 2 0 1 0 1 0 0 0 0 0 0 0 0 0 0',
      ].join('\n'),
    );
    expect(receiveMessages(st)).toEqual([
      'Key 4D4B added to keychain',
      'Key B2BE already exists in keychain',
      'Unable to add key to keychain',
    ]);
  });
});
