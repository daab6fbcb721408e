import { describe, expect, it } from 'vitest';
import { maybeEncrypt, md5Verifier, scramVerifier, verifyPassword } from './_pg-password.js';

describe('postgres password verifiers', () => {
  it('md5 is md5 of password then role, prefixed', () => {
    // echo -n 'secretbob' | md5sum
    expect(md5Verifier('bob', 'secret')).toBe('md521f3163f8f86fa10bdefbfbd502a8f06');
  });
  it('scram-sha-256 matches the RFC 7677 test vector', () => {
    // RFC 7677: password "pencil", salt W22ZaJ0SNY7soEsUEjb6gQ==, 4096 iterations
    const v = scramVerifier('pencil', Buffer.from('W22ZaJ0SNY7soEsUEjb6gQ==', 'base64'), 4096);
    expect(v).toBe(
      'SCRAM-SHA-256$4096:W22ZaJ0SNY7soEsUEjb6gQ==$WG5d8oPm3OtcPnkdi4Uo7BkeZkBFzpcXkuLmtbsT4qY=:wfPLwcE6nTWhTAmQ7tl2KeoiWGPlZqQxSrmfPwDl2dU=',
    );
  });
  it('keeps a verifier as it is, refuses an unknown method', () => {
    expect(maybeEncrypt('bob', 'md5abc', 'md5')).toBe('md5abc');
    expect(maybeEncrypt('bob', 'secret', true)).toBe(md5Verifier('bob', 'secret'));
    expect(maybeEncrypt('bob', 'secret', false)).toBe('secret');
    expect(() => maybeEncrypt('bob', 'secret', 'sha1')).toThrow(/Unknown password algorithm: sha1/);
  });
  it('verifies a password against a stored scram verifier with its salt and iterations', () => {
    const stored = scramVerifier('s3cret');
    expect(verifyPassword('bob', 's3cret', stored, 'scram-sha-256')).toBe(true);
    expect(verifyPassword('bob', 'other', stored, 'scram-sha-256')).toBe(false);
    expect(verifyPassword('bob', 's3cret', md5Verifier('bob', 's3cret'), 'md5')).toBe(true);
  });
});
