import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { invoke } from './_fake-ctx.js';
import ini from './ini.js';

// The expected returns and file texts are what salt-call --local (Salt 3006.18) gave for the same calls.
const SAMPLE = `# top comment
top = 1
name=value

[main]
# port = 80
host : x
key = a value with = sign
  continued line
plain line
; semi
empty =

[other]
a=1
[main]
b = 2
`;
const dir = mkdtempSync(join(tmpdir(), 'tsalt-t-ini-'));
const file = join(dir, 'sample.ini');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeEach(() => writeFileSync(file, SAMPLE));
const kw = (o: Record<string, unknown>) => ({ __kwarg__: true, ...o });
const call = async (fun: string, arg: unknown[]) => (await invoke(ini, fun, arg)).value;

describe('ini', () => {
  it('reads options, sections, continuation lines and repeated sections', async () => {
    expect(await call('get_ini', [file])).toEqual({
      top: '1',
      name: 'value',
      main: { key: 'a value with = sign\n  continued line', empty: '', b: '2' },
      other: { a: '1' },
    });
    expect(Object.keys((await call('get_ini', [file])) as object)).toEqual(['top', 'name', 'main', 'other']);
    expect(await call('get_option', [file, 'main', 'b'])).toBe('2');
    expect(await call('get_option', [file, '', 'top'])).toBe('1');
    expect(await call('get_option', [file, 'main', 'nope'])).toBeNull();
    expect(await call('get_option', [file, 'top', 'x'])).toBeNull();
    expect(await call('get_section', [file, 'other'])).toEqual({ a: '1' });
    expect(await call('get_section', [file, 'nope'])).toEqual({});
    expect(await call('get_ini', [file, kw({ separator: ':' })])).toEqual({ main: { host: 'x' }, other: {} });
    expect(await call('get_ini', [join(dir, 'missing.ini')])).toEqual({});
    await expect(call('get_ini', [dir])).rejects.toThrow(
      `Unable to open file '${dir}'. Exception: [Errno 21] Is a directory: '${dir}'`,
    );
  });

  it('sets options: a commented-out option is replaced, separators get spaces', async () => {
    expect(
      await call('set_option', [file, { main: { port: 81, key: 'new' }, top: 3, new: { x: true } }]),
    ).toEqual({
      main: {
        port: { before: null, after: '81' },
        key: { before: 'a value with = sign\n  continued line', after: 'new' },
      },
      top: { before: '1', after: '3' },
      new: { before: null, after: { x: 'True' } },
    });
    expect(readFileSync(file, 'utf8')).toBe(
      '# top comment\ntop = 3\nname = value\n\n[main]\nport = 81\nhost : x\nkey = new\nplain line\n; semi\nempty = \nb = 2\n\n[other]\na = 1\n\n[new]\nx = True\n',
    );
    expect(await call('set_option', [file, { main: { port: 81 } }])).toEqual({});
    await call('set_option', [file, { other: { a: 2 } }, kw({ no_spaces: true })]);
    expect(readFileSync(file, 'utf8')).toContain('\n[other]\na=2\n');
  });

  it('removes options and sections, answering what was there', async () => {
    expect(await call('remove_option', [file, 'main', 'key'])).toBe('a value with = sign\n  continued line');
    expect(await call('remove_option', [file, '', 'top'])).toBe('1');
    expect(await call('remove_option', [file, '', 'nope'])).toBeNull();
    expect(await call('remove_section', [file, 'main'])).toEqual({ empty: '', b: '2' });
    expect(await call('remove_section', [file, 'main'])).toBeNull();
    expect(readFileSync(file, 'utf8')).toBe('# top comment\nname = value\n\n[other]\na = 1\n');
  });
});
