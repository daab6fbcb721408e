import { describe, expect, it } from 'vitest';
import { statusLines } from './_gpg-run.js';
import {
  createdFingerprint,
  cryptOutcome,
  deleteOutcome,
  importCounts,
  verifyOutcome,
} from './_gpg-status.js';

// status lines as gpg 2.2 writes them on --status-fd 2, mixed with its messages
const st = (...lines: string[]) => statusLines(lines.join('\n'));

describe('gpg status lines (python-gnupg result classes)', () => {
  it('keeps only [GNUPG:] lines, split into key and value', () => {
    expect(
      st('gpg: key FFD4A5116041736B: public key imported', '[GNUPG:] IMPORT_OK 1 FD56', '[GNUPG:] NODATA 1 '),
    ).toEqual([
      { key: 'IMPORT_OK', value: '1 FD56' },
      { key: 'NODATA', value: '1' },
    ]);
  });

  it('reads IMPORT_RES counts in their order', () => {
    const c = importCounts(st('[GNUPG:] IMPORT_RES 2 0 1 0 1 0 0 0 0 2 2 0 0 0 0'));
    expect(c).toMatchObject({
      count: 2,
      imported: 1,
      unchanged: 1,
      sec_read: 2,
      sec_imported: 2,
      not_imported: 0,
    });
    expect(importCounts(st('gpg: no valid OpenPGP data found.')).count).toBe(0);
  });

  it('reads a decryption: ok, a missing secret key, garbage', () => {
    const ok = cryptOutcome(
      st(
        '[GNUPG:] ENC_TO F4ECC7D851365679 1 0',
        '[GNUPG:] BEGIN_DECRYPTION',
        '[GNUPG:] DECRYPTION_OKAY',
        '[GNUPG:] END_DECRYPTION',
      ),
    );
    expect(ok).toMatchObject({ ok: true, status: 'decryption ok' });
    const nosec = cryptOutcome(
      st(
        '[GNUPG:] ENC_TO 0123 1 0',
        '[GNUPG:] NO_SECKEY 0123',
        '[GNUPG:] BEGIN_DECRYPTION',
        '[GNUPG:] DECRYPTION_FAILED',
        '[GNUPG:] END_DECRYPTION',
      ),
    );
    expect(nosec).toMatchObject({ ok: false, status: 'no secret key' });
    expect(cryptOutcome(st('[GNUPG:] NODATA 1', '[GNUPG:] FAILURE decrypt 4294967295')).status).toBe(
      'no data was provided',
    );
    expect(cryptOutcome(st('[GNUPG:] FAILURE decrypt 11')).status).toBe('decrypt: incorrect passphrase');
    expect(cryptOutcome(st('[GNUPG:] INV_RECP 0 nobody@x.test', '[GNUPG:] FAILURE encrypt 53')).status).toBe(
      'invalid recipient',
    );
  });

  it('reads a verification: signer and trust, or none', () => {
    const v = verifyOutcome(
      st(
        '[GNUPG:] NEWSIG',
        '[GNUPG:] GOODSIG FFD4A5116041736B Alice Test (cmp) <alice@gpg16.test>',
        '[GNUPG:] VALIDSIG FD56 2026-11-29',
        '[GNUPG:] TRUST_ULTIMATE 0 pgp',
      ),
    );
    expect(v).toMatchObject({
      valid: true,
      keyId: 'FFD4A5116041736B',
      username: 'Alice Test (cmp) <alice@gpg16.test>',
      trustLevel: 4,
    });
    expect(
      verifyOutcome(
        st('[GNUPG:] ERRSIG D573DA7A9CD48AA3 1 10 01 1795903993 9 -', '[GNUPG:] NO_PUBKEY D573DA7A9CD48AA3'),
      ).trustLevel,
    ).toBeNull();
  });

  it('reads a created key and a deletion', () => {
    expect(
      createdFingerprint(
        st('[GNUPG:] KEY_CONSIDERED X 0', '[GNUPG:] KEY_CREATED B 01154EFCA38BDE8F74136FFAD573DA7A9CD48AA3'),
      ),
    ).toBe('01154EFCA38BDE8F74136FFAD573DA7A9CD48AA3');
    expect(createdFingerprint(st('[GNUPG:] KEY_NOT_CREATED'))).toBe('');
    expect(deleteOutcome(st())).toBe('ok');
    expect(deleteOutcome(st('[GNUPG:] DELETE_PROBLEM 2'))).toBe('Must delete secret key first');
  });
});
