import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import xmlMod from '../modules/xml.js';
import { moduleCtx, runState } from './_test-ctx.js';
import xml from './xml.js';

// Expectations: Salt 3006.18's returns for the same SLS (salt-call --local, test=True and real).
const dir = mkdtempSync(join(tmpdir(), 'tsalt-t-xmlst-'));
const file = join(dir, 'plays.xml');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeEach(() => writeFileSync(file, '<plays><play id="1">Hamlet</play><play id="2"/></plays>\n'));
const ctx = moduleCtx([xmlMod]);
const st = (kw: Record<string, unknown>, test = false) =>
  runState(xml, 'value_present', { name: file, ...kw }, { ctx, test });

describe('xml.value_present', () => {
  it('predicts, changes, then finds the value present', async () => {
    const kw = { xpath: ".//play[@id='1']", value: 'Macbeth' };
    const changes = { [file]: { old: 'Hamlet', new: 'Macbeth' } };
    expect(await st(kw, true)).toEqual({
      name: file,
      changes,
      result: null,
      comment: `${file} will be updated`,
    });
    expect(readFileSync(file, 'utf8')).toContain('Hamlet');
    expect(await st(kw)).toEqual({ name: file, changes, result: true, comment: `${file} updated` });
    expect(readFileSync(file, 'utf8')).toBe('<plays><play id="1">Macbeth</play><play id="2" /></plays>');
    expect(await st(kw)).toEqual({
      name: file,
      changes: {},
      result: true,
      comment: 'Macbeth is already present',
    });
  });

  it('fails for no match or an element without text; a number never equals the text', async () => {
    for (const xpath of ['.//nope', ".//play[@id='2']"])
      expect(await st({ xpath, value: 'x' })).toEqual({
        name: file,
        changes: {},
        result: false,
        comment: `xpath query ${xpath} not found in ${file}`,
      });
    writeFileSync(file, '<a><n>2</n></a>');
    expect(await st({ xpath: 'n', value: 2 }, true)).toEqual({
      name: file,
      changes: { [file]: { old: '2', new: 2 } },
      result: null,
      comment: `${file} will be updated`,
    });
  });
});
