import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { invoke } from './_fake-ctx.js';
import xml from './xml.js';

// Returns and file bytes: what salt-call --local (Salt 3006.18) gave for the same calls.
const dir = mkdtempSync(join(tmpdir(), 'tsalt-t-xml-'));
const file = join(dir, 'plays.xml');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeEach(() =>
  writeFileSync(
    file,
    `<?xml version="1.0"?>\n<plays>\n  <play id="1" lang="en"><author>William Shakespeare</author></play>\n  <play id="2"><author/></play>\n</plays>\n`,
  ),
);
const call = async (fun: string, arg: unknown[]) => (await invoke(xml, fun, arg)).value;

describe('xml', () => {
  it('reads text and attributes; False for no match, None for no text', async () => {
    expect(await call('get_value', [file, ".//play[@id='1']/author"])).toBe('William Shakespeare');
    expect(await call('get_value', [file, ".//play[@id='2']/author"])).toBeNull();
    expect(await call('get_value', [file, './/nope'])).toBe(false);
    expect(await call('get_attribute', [file, 'play'])).toEqual({ id: '1', lang: 'en' });
    expect(await call('get_attribute', [file, 'play/author'])).toEqual({});
    expect(await call('get_attribute', [file, './/nope'])).toBe(false);
  });

  it('sets text and attributes, writing the file as ElementTree does', async () => {
    expect(await call('set_value', [file, ".//play[@id='2']/author", 'Goethe & Schiller'])).toBe(true);
    expect(await call('set_attribute', [file, ".//play[@id='2']", 'editedby', 7])).toBe(true);
    expect(await call('set_value', [file, ".//play[@id='1']/author", '\u00e9'])).toBe(true);
    expect(readFileSync(file, 'latin1')).toBe(
      `<plays>\n  <play id="1" lang="en"><author>&#233;</author></play>\n  <play id="2" editedby="7"><author>Goethe &amp; Schiller</author></play>\n</plays>`,
    );
  });

  it('fails clearly, leaving the file alone, where Salt raises', async () => {
    const before = readFileSync(file, 'utf8');
    await expect(call('set_value', [file, './/nope', 'x'])).rejects.toThrow(
      'Unable to find element matching .//nope',
    );
    await expect(call('set_attribute', [file, './/nope', 'k', 'v'])).rejects.toThrow(
      'Unable to find element matching',
    );
    await expect(call('get_value', [join(dir, 'none.xml'), '.'])).rejects.toThrow(
      '[Errno 2] No such file or directory',
    );
    expect(readFileSync(file, 'utf8')).toBe(before);
    writeFileSync(join(dir, 'bad.xml'), '<a><b>\n');
    await expect(call('get_value', [join(dir, 'bad.xml'), '.'])).rejects.toThrow(
      'no element found: line 2, column 0',
    );
  });
});
