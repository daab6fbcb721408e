import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import iniMod from '../modules/ini.js';
import { moduleCtx, runState } from './_test-ctx.js';
import ini from './ini.js';

// Expectations: Salt 3006.18's state.single returns for the same steps.
const dir = mkdtempSync(join(tmpdir(), 'tsalt-t-ini-state-'));
const name = join(dir, 'app.ini');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeEach(() => writeFileSync(name, 'top = 1\n\n[main]\n# port = 80\nkey = v\n\n[other]\na=1\n'));
const ctx = moduleCtx([iniMod]);
const st = (fn: string, kw: Record<string, unknown>, test = false) =>
  runState(ini, fn, { name, ...kw }, { ctx, test });

describe('ini states', () => {
  it('options_present reports, then makes, the changes', async () => {
    const sections = { main: { port: 81, key: 'v' }, top: 3 };
    expect(await st('options_present', { sections }, true)).toEqual({
      name,
      changes: {},
      result: null,
      comment: 'Changed key top.\nChanged key port in section main.\nUnchanged key key in section main.\n',
    });
    expect(await st('options_present', { sections })).toEqual({
      name,
      changes: { top: { before: '1', after: '3' }, main: { port: { before: null, after: '81' } } },
      result: true,
      comment: 'Changes take effect',
    });
    expect(readFileSync(name, 'utf8')).toBe('top = 3\n\n[main]\nport = 81\nkey = v\n\n[other]\na = 1\n');
    expect(await st('options_present', { sections })).toMatchObject({
      changes: {},
      comment: 'No anomaly detected',
    });
  });

  it('options_present strict removes what is not listed', async () => {
    expect(await st('options_present', { sections: { main: { n: 1 } }, strict: true }, true)).toMatchObject({
      result: null,
      comment: 'Removed key top.\nDeleted key key in section main.\nChanged key n in section main.\n',
    });
    expect(await st('options_present', { sections: { main: { n: 1 } }, strict: true })).toMatchObject({
      changes: {
        top: { before: '1', after: null },
        main: { key: { before: 'v', after: null }, n: { before: null, after: '1' } },
      },
      result: true,
    });
  });

  it('options_absent, sections_present and sections_absent', async () => {
    expect(await st('options_absent', { sections: { main: ['key', 'nope'], top: 'x' } }, true)).toEqual({
      name,
      changes: {},
      result: null,
      comment:
        'Deleted key key in section main.\nKey nope in section main does not exist.\nDeleted key top.\n',
    });
    expect(await st('options_absent', { sections: { main: ['key', 'nope'] } })).toEqual({
      name,
      changes: { main: { key: 'v' } },
      result: true,
      comment: 'Changes take effect',
    });
    expect(await st('sections_present', { sections: ['main', 'new'] }, true)).toMatchObject({
      result: null,
      comment: 'Section unchanged main.\nCreated new section new.\n',
    });
    expect(await st('sections_present', { sections: ['main', 'new'] })).toMatchObject({
      changes: { new: { before: null, after: {} } },
      result: true,
    });
    expect(await st('sections_absent', { sections: ['other', 'nope'] }, true)).toMatchObject({
      result: null,
      comment: 'Deleted section other.\nSection nope does not exist.\n',
    });
    expect(await st('sections_absent', { sections: ['other', 'nope'] })).toEqual({
      name,
      changes: { other: { a: '1' } },
      result: true,
      comment: 'Changes take effect',
    });
    expect(readFileSync(name, 'utf8')).toBe('top = 1\n\n[main]\n# port = 80\n\n[new]\n');
  });
});
