import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeCtx, invoke } from './_fake-ctx.js';
import { readGrainsFile } from './_grains-file.js';
import grains from './grains.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A ctx whose grains file lives in a fresh temp config dir. */
function setup(g: Record<string, unknown> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'tsalt-grainsmod-'));
  dirs.push(dir);
  const file = join(dir, 'grains');
  const ctx = fakeCtx({ grains: { ...g }, opts: { conf_file: join(dir, 'minion'), cachedir: dir } });
  return { ctx, file, stored: () => readGrainsFile(file).grains };
}

const base = {
  id: 'web1.example.com',
  host: 'web1',
  fqdn: 'web1.example.com',
  os_family: 'Debian',
  os: 'Debian',
  roles: ['web', 'db'],
  pkg: { apache: 'apache2', list: [{ a: 1 }, 'x'] },
  num: 5,
};

async function call(ctx: ReturnType<typeof fakeCtx>, fun: string, arg: unknown[] = []): Promise<unknown> {
  return (await invoke(grains, fun, arg, ctx)).value;
}

describe('grains: reading', () => {
  it('items returns every grain; sanitize hides host names', async () => {
    const { ctx } = setup(base);
    expect(await call(ctx, 'items')).toEqual(base);
    expect(await call(ctx, 'items', [{ __kwarg__: true, sanitize: true }])).toMatchObject({
      id: 'MINION.DOMAINNAME',
      host: 'MINION',
      fqdn: 'MINION.DOMAINNAME',
      os: 'Debian',
    });
  });

  it('item returns the named grains, nested keys, default for missing', async () => {
    const { ctx } = setup(base);
    expect(await call(ctx, 'item', ['os', 'pkg:apache', 'nope'])).toEqual({
      os: 'Debian',
      'pkg:apache': 'apache2',
      nope: '',
    });
    expect(await call(ctx, 'item', ['nope', { __kwarg__: true, default: 'd' }])).toEqual({ nope: 'd' });
    expect(await call(ctx, 'item', ['pkg|apache', { __kwarg__: true, delimiter: '|' }])).toEqual({
      'pkg|apache': 'apache2',
    });
    expect(await call(ctx, 'item', ['host', { __kwarg__: true, sanitize: true }])).toEqual({
      host: 'MINION',
    });
  });

  it('get and fetch traverse dicts and lists, with default and delimiter', async () => {
    const { ctx } = setup(base);
    expect(await call(ctx, 'get', ['os'])).toBe('Debian');
    expect(await call(ctx, 'get', ['pkg:apache'])).toBe('apache2');
    expect(await call(ctx, 'get', ['pkg:list:0:a'])).toBe(1);
    expect(await call(ctx, 'get', ['pkg:list:a'])).toBe(1);
    expect(await call(ctx, 'get', ['pkg:list:-1'])).toBe('x');
    expect(await call(ctx, 'get', ['pkg:list:5'])).toBe('');
    expect(await call(ctx, 'get', ['roles:1'])).toBe('db');
    expect(await call(ctx, 'get', ['os:deeper'])).toBe('');
    expect(await call(ctx, 'get', ['missing', 'fallback'])).toBe('fallback');
    expect(await call(ctx, 'get', ['pkg,apache', { __kwarg__: true, delimiter: ',' }])).toBe('apache2');
    expect(await call(ctx, 'fetch', ['pkg:apache'])).toBe('apache2');
  });

  it('has_value, ls, equals', async () => {
    const { ctx } = setup({ ...base, empty: '', nothing: null });
    expect(await call(ctx, 'has_value', ['pkg:apache'])).toBe(true);
    expect(await call(ctx, 'has_value', ['empty'])).toBe(true);
    expect(await call(ctx, 'has_value', ['nothing'])).toBe(true);
    expect(await call(ctx, 'has_value', ['pkg:nginx'])).toBe(false);
    expect(await call(ctx, 'ls')).toEqual([
      'empty',
      'fqdn',
      'host',
      'id',
      'nothing',
      'num',
      'os',
      'os_family',
      'pkg',
      'roles',
    ]);
    expect(await call(ctx, 'equals', ['num', '5'])).toBe(true);
    expect(await call(ctx, 'equals', ['num', 5])).toBe(true);
    expect(await call(ctx, 'equals', ['os', 'RedHat'])).toBe(false);
  });
});

describe('grains.filter_by (Salt semantics)', () => {
  it('looks up os_family, with globs, default and lists', async () => {
    const { ctx } = setup(base);
    expect(await call(ctx, 'filter_by', [{ Debian: 'apt', RedHat: 'yum' }])).toBe('apt');
    expect(await call(ctx, 'filter_by', [{ 'Deb*': 'glob', RedHat: 'yum' }])).toBe('glob');
    expect(await call(ctx, 'filter_by', [{ RedHat: 'yum', default: 'other' }])).toBe('other');
    expect(await call(ctx, 'filter_by', [{ RedHat: 'yum' }])).toBeNull();
    expect(await call(ctx, 'filter_by', [{ db: 'database', web: 'www' }, 'roles'])).toBe('www');
    expect(await call(ctx, 'filter_by', [{ 'web1*': 'mine', default: 'no' }, 'id'])).toBe('mine');
    expect(await call(ctx, 'filter_by', [{ RedHat: 'yum', Arch: 'pacman' }, 'os_family', null, 'Arch'])).toBe(
      'pacman',
    );
  });

  it("merges base, the selection and merge as Salt's docs show", async () => {
    const { ctx } = setup(base);
    // salt '*' grains.filter_by '{A: B, C: {D: {E: F, G: H}}}' 'xxx' '{D: {E: I}, J: K}' 'C'
    expect(
      await call(ctx, 'filter_by', [
        { A: 'B', C: { D: { E: 'F', G: 'H' } } },
        'xxx',
        { D: { E: 'I' }, J: 'K' },
        'C',
      ]),
    ).toEqual({ D: { E: 'I', G: 'H' }, J: 'K' });
    const lookup = { default: { A: { B: 'C' }, D: 'E' }, F: { A: { B: 'G' } }, H: { D: 'I' } };
    expect(await call(ctx, 'filter_by', [lookup, 'xxx', { D: 'J' }, 'F', 'default'])).toEqual({
      A: { B: 'G' },
      D: 'J',
    });
    expect(await call(ctx, 'filter_by', [lookup, 'xxx', { D: 'J' }, 'H', 'default'])).toEqual({
      A: { B: 'C' },
      D: 'J',
    });
  });

  it('rejects a merge that is not a dictionary', async () => {
    const { ctx } = setup(base);
    await expect(call(ctx, 'filter_by', [{ Debian: {} }, 'os_family', 'nope'])).rejects.toThrow(
      'filter_by merge argument must be a dictionary.',
    );
  });
});

describe('grains: persisting', () => {
  it('setval writes the grains file and updates this job', async () => {
    const { ctx, stored } = setup(base);
    expect(await call(ctx, 'setval', ['role', 'web'])).toEqual({ role: 'web' });
    expect(stored()).toEqual({ role: 'web' });
    expect(ctx.grains.role).toBe('web');
    expect(await call(ctx, 'setval', ['cfg', { a: 1 }])).toEqual({ cfg: { a: 1 } });
    expect(stored()).toEqual({ role: 'web', cfg: { a: 1 } });
  });

  it('setvals merges several and keeps the rest of the file', async () => {
    const { ctx, file, stored } = setup();
    writeFileSync(file, 'keep: 1\n');
    expect(await call(ctx, 'setvals', [{ a: 1, b: 'two' }])).toEqual({ a: 1, b: 'two' });
    expect(stored()).toEqual({ keep: 1, a: 1, b: 'two' });
    await expect(call(ctx, 'setvals', ['notadict'])).rejects.toThrow('setvals grains must be a dictionary.');
  });

  it('setvals reports an unreadable grains file', async () => {
    const { ctx, file } = setup();
    writeFileSync(file, 'a: [\n');
    expect(String(await call(ctx, 'setvals', [{ a: 1 }]))).toMatch(/^Unable to read existing grains file: /);
  });

  it('delval sets None, destructive removes the key; delkey removes it', async () => {
    const { ctx, stored } = setup();
    await call(ctx, 'setvals', [{ a: 1, b: 2, c: 3 }]);
    expect(await call(ctx, 'delval', ['a'])).toEqual({ comment: '', changes: { a: null }, result: true });
    expect(stored()).toEqual({ a: null, b: 2, c: 3 });
    expect(await call(ctx, 'delval', ['b', { __kwarg__: true, destructive: true }])).toEqual({
      comment: '',
      changes: { b: null },
      result: true,
    });
    expect(stored()).toEqual({ a: null, c: 3 });
    expect('b' in ctx.grains).toBe(false);
    await call(ctx, 'delkey', ['c']);
    expect(stored()).toEqual({ a: null });
  });

  it('set is conservative with lists and dicts and understands nested keys', async () => {
    const { ctx, stored } = setup({ roles: ['web'] });
    expect(await call(ctx, 'set', ['roles', 'x'])).toEqual({
      comment: "The key 'roles' exists but is a dict or a list. Use 'force=True' to overwrite.",
      changes: {},
      result: false,
    });
    expect(await call(ctx, 'set', ['apps:myApp:port', 2209])).toEqual({
      comment: '',
      changes: { apps: { myApp: { port: 2209 } } },
      result: true,
    });
    expect(stored()).toEqual({ apps: { myApp: { port: 2209 } } });
    expect(await call(ctx, 'set', ['apps:myApp:port', 2209])).toMatchObject({
      comment: 'Grain is already set',
    });
  });

  it('append and remove work on lists, nested too', async () => {
    const { ctx, stored } = setup({ roles: ['web'], one: 'x', nest: { l: ['a'] } });
    expect(await call(ctx, 'append', ['roles', 'db'])).toEqual({ roles: ['web', 'db'] });
    expect(await call(ctx, 'append', ['roles', 'db'])).toBe('The val db was already in the list roles');
    expect(await call(ctx, 'append', ['one', 'y'])).toBe('The key one is not a valid list');
    expect(await call(ctx, 'append', ['one', 'y', { __kwarg__: true, convert: true }])).toEqual({
      one: ['x', 'y'],
    });
    expect(await call(ctx, 'append', ['fresh', 'v'])).toEqual({ fresh: ['v'] });
    expect(await call(ctx, 'append', ['nest:l', 'b'])).toEqual({ nest: { l: ['a', 'b'] } });
    expect(await call(ctx, 'remove', ['roles', 'web'])).toEqual({ roles: ['db'] });
    expect(await call(ctx, 'remove', ['roles', 'zzz'])).toBe('The val zzz was not in the list roles');
    expect(await call(ctx, 'remove', ['one', 'x'])).toEqual({ one: ['y'] });
    expect(stored()).toMatchObject({ roles: ['db'], fresh: ['v'], nest: { l: ['a', 'b'] }, one: ['y'] });
  });

  it('writes a YAML file Salt can read', async () => {
    const { ctx, file } = setup();
    await call(ctx, 'setval', ['role', 'web']);
    expect(readFileSync(file, 'utf8')).toBe('role: web\n');
  });
});
