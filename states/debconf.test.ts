import { execFileSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { which } from '../modules/_which.js';
import debconfMod from '../modules/debconf.js';
import { moduleCtx, runState } from './_test-ctx.js';
import debconf from './debconf.js';

// Answers for a throwaway package in this machine's debconf database (purged after), needs
// debconf-utils; expectations: Salt 3006.18's returns for the same steps.
const can = process.getuid?.() === 0 && which('debconf-get-selections') !== null;
const PKG = 'tsalt-t-debconf';
const purge = () => execFileSync('debconf-communicate', [PKG], { input: 'PURGE\n' });
const ctx = moduleCtx([debconfMod]);
const st = (kw: Record<string, unknown>, test = false) => runState(debconf, 'set', kw, { ctx, test });
afterAll(() => {
  if (can) purge();
});

describe.skipIf(!can)('debconf.set', () => {
  it('predicts, sets, then finds the answers set; a password is never shown', async () => {
    purge();
    const data = {
      [`${PKG}/str`]: { type: 'string', value: 'hello world' },
      [`${PKG}/flag`]: { type: 'boolean', value: true },
      [`${PKG}/pw`]: { type: 'password', value: 's3cret' },
    };
    expect(await st({ name: PKG, data }, true)).toEqual({
      name: PKG,
      changes: {
        [`${PKG}/str`]: 'New value: hello world',
        [`${PKG}/flag`]: 'New value: true',
        [`${PKG}/pw`]: 'New value: (password hidden)',
      },
      result: null,
      comment: '',
    });
    expect(await st({ name: PKG, data })).toEqual({
      name: PKG,
      changes: { [`${PKG}/str`]: 'hello world', [`${PKG}/flag`]: 'true', [`${PKG}/pw`]: '(password hidden)' },
      result: true,
      comment: '',
    });
    expect(await ctx.call('debconf.show', [PKG])).toEqual(
      expect.arrayContaining([
        [`${PKG}/str`, 'string', 'hello world'],
        [`${PKG}/flag`, 'boolean', 'true'],
      ]),
    );
    const again = await st({ name: PKG, data: { [`${PKG}/str`]: data[`${PKG}/str`] } });
    expect(again).toEqual({
      name: PKG,
      changes: {},
      result: true,
      comment: 'All specified answers are already set',
    });
  });
});
