import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { UnitLogger, VirtualContext } from './define.js';
import { createModuleLoader, type ModuleLoaderOptions } from './module-loader.js';

interface LogRecord {
  level: string;
  obj: object | string;
  msg: string | undefined;
}

function captureLog(): { log: UnitLogger; records: LogRecord[] } {
  const records: LogRecord[] = [];
  const at =
    (level: string) =>
    (obj: object | string, msg?: string): void => {
      records.push({ level, obj, msg });
    };
  return {
    log: { trace: at('trace'), debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') },
    records,
  };
}

const warnings = (records: LogRecord[]): string[] =>
  records.filter((r) => r.level === 'warn').map((r) => r.msg ?? '');

const roots: string[] = [];
afterAll(async () => {
  await Promise.all(roots.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** Writes `files` (name → source) into a fresh temp dir and returns its path. */
async function unitDir(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'tsalt-loader-'));
  roots.push(dir);
  for (const [name, source] of Object.entries(files)) await writeFile(join(dir, name), source);
  return dir;
}

/** Source of a tiny module file: `name`, functions returning their own label, optional extras. */
function mod(name: string, fns: string[], extra = ''): string {
  const functions = fns.map((fn) => `${fn}: { doc: '${name}.${fn} doc', run: () => '${name}.${fn}' }`);
  return `export default { name: '${name}', ${extra} functions: { ${functions.join(', ')} } };\n`;
}

const vctx: VirtualContext = { opts: {}, grains: { kernel: 'Linux' } };

function loader(options: Partial<ModuleLoaderOptions> & { dirs: string[] }) {
  const { log, records } = captureLog();
  return { loader: createModuleLoader({ virtualContext: vctx, log, ...options }), records };
}

describe('createModuleLoader: search order', () => {
  it('first dir wins on a stem collision and the warning names both paths', async () => {
    const high = await unitDir({ 'alpha.mjs': mod('alpha', ['who']) });
    const low = await unitDir({
      'alpha.mjs': mod('alpha', ['who', 'low_only']),
      'beta.mjs': mod('beta', ['x']),
    });
    const { loader: l, records } = loader({ dirs: [high, low] });
    const spec = await l.get('alpha.who');
    expect(spec?.doc).toBe('alpha.who doc');
    expect(await l.get('alpha.low_only')).toBeUndefined();
    expect(await l.get('beta.x')).toBeDefined();
    const warn = records.find((r) => r.level === 'warn');
    expect(warn?.msg).toContain(join(high, 'alpha.mjs'));
    expect(warn?.msg).toContain(join(low, 'alpha.mjs'));
    expect(warn?.obj).toMatchObject({ kept: join(high, 'alpha.mjs'), ignored: join(low, 'alpha.mjs') });
  });

  it('searches dirs, then packages, then built-ins', async () => {
    const pkgroot = resolve('test/fixtures/loader/pkgroot');
    const builtin = await unitDir({ 'demo.mjs': mod('demo', ['hello']), 'base.mjs': mod('base', ['x']) });
    const { loader: l } = loader({
      dirs: [],
      packages: ['tsalt-ext-demo'],
      resolveFrom: pkgroot,
      builtinDirs: [builtin],
    });
    const spec = await l.get('demo.hello');
    expect(spec?.doc).toBe('Says hello.');
    expect(await spec?.run({} as never, {}, { args: [], kwargs: {} })).toBe('hello from tsalt-ext-demo');
    expect(await l.moduleDoc('demo')).toBe('Demo module from an npm package.');
    expect(await l.get('base.x')).toBeDefined();
  });

  it('logs a package that is missing or declares no modules, and goes on', async () => {
    const pkgroot = resolve('test/fixtures/loader/pkgroot');
    const { loader: l, records } = loader({
      dirs: [],
      packages: ['tsalt-ext-absent', 'tsalt-ext-nofield', 'tsalt-ext-demo'],
      resolveFrom: pkgroot,
    });
    expect(await l.listModules()).toEqual(['demo']);
    const warns = warnings(records);
    expect(warns.some((m) => m.includes('tsalt-ext-absent') && m.includes('not found'))).toBe(true);
    expect(warns.some((m) => m.includes('tsalt-ext-nofield') && m.includes('no "tsalt" field'))).toBe(true);
  });

  it('skips _private, *.test.*, *.d.ts, *.map and non-JS files; *.ts only with tsLoader', async () => {
    const throwing = "throw new Error('must not be imported');\n";
    const dir = await unitDir({
      'ok.mjs': mod('ok', ['x']),
      'plain.js': mod('plain', ['x']),
      '_private.mjs': throwing,
      'ok.test.mjs': throwing,
      'types.d.ts': throwing,
      'ok.mjs.map': throwing,
      'notes.txt': throwing,
      'typed.ts': throwing,
    });
    await mkdir(join(dir, 'subdir.mjs'));
    const { loader: l } = loader({ dirs: [dir] });
    expect(await l.listModules()).toEqual(['ok', 'plain']);
  });
});

describe('createModuleLoader: lazy import', () => {
  it('does not import a file until one of its functions is asked for', async () => {
    const side = (name: string) =>
      `import { writeFileSync } from 'node:fs';\n` +
      `writeFileSync(new URL('./${name}.marker', import.meta.url), 'x');\n` +
      mod(name, ['go']);
    const dir = await unitDir({ 'lazy.mjs': side('lazy'), 'eager.mjs': side('eager') });
    const { loader: l } = loader({ dirs: [dir] });
    expect(await l.get('eager.go')).toBeDefined();
    expect(existsSync(join(dir, 'eager.marker'))).toBe(true);
    expect(existsSync(join(dir, 'lazy.marker'))).toBe(false);
    expect(await l.get('lazy.go')).toBeDefined();
    expect(existsSync(join(dir, 'lazy.marker'))).toBe(true);
  });

  it('imports the other files once when no file stem matches the name', async () => {
    const dir = await unitDir({
      'aaa.mjs': mod('aaa', ['x']),
      'cmdmod.mjs': mod('cmd', ['run']),
      'zzz.mjs': `import { writeFileSync } from 'node:fs';\nwriteFileSync(new URL('./zzz.marker', import.meta.url), 'x');\n${mod('zzz', ['x'])}`,
    });
    const { loader: l } = loader({ dirs: [dir] });
    expect(await l.get('cmd.run')).toBeDefined();
    expect(existsSync(join(dir, 'zzz.marker'))).toBe(true);
    expect(await l.get('cmdmod.run')).toBeUndefined();
  });

  it('answers concurrent requests with one import', async () => {
    const dir = await unitDir({
      'count.mjs':
        `globalThis.__tsaltLoaderCount = (globalThis.__tsaltLoaderCount ?? 0) + 1;\n` +
        `export default { name: 'count', functions: { n: { run: () => globalThis.__tsaltLoaderCount } } };\n`,
    });
    const { loader: l } = loader({ dirs: [dir] });
    const specs = await Promise.all([l.get('count.n'), l.get('count.n'), l.listFunctions()]);
    expect(specs[0]).toBe(specs[1]);
    expect(specs[0]?.run({} as never, {}, { args: [], kwargs: {} })).toBe(1);
  });

  it('picks up a file added after a miss (one rescan), and reload() forgets misses', async () => {
    const dir = await unitDir({ 'one.mjs': mod('one', ['x']) });
    const { loader: l } = loader({ dirs: [dir] });
    expect(await l.get('two.x')).toBeUndefined();
    await writeFile(join(dir, 'two.mjs'), mod('two', ['x']));
    expect(await l.get('two.x')).toBeUndefined(); // the miss is remembered
    l.reload();
    expect(await l.get('two.x')).toBeDefined();
    await writeFile(join(dir, 'three.mjs'), mod('three', ['x']));
    expect(await l.get('three.x')).toBeDefined(); // first miss of a name rescans
    expect(await l.listModules()).toEqual(['one', 'three', 'two']);
  });
});

describe('createModuleLoader: virtual(), aliases, failures', () => {
  it('keeps the reason of a virtual() refusal and explains it the Salt way', async () => {
    const dir = await unitDir({
      'winonly.mjs': mod(
        'winonly',
        ['x'],
        "virtual: (ctx) => ctx.grains.kernel === 'Windows' || { ok: false, reason: 'Windows only' },",
      ),
      'silent.mjs': mod('silent', ['x'], 'virtual: () => false,'),
    });
    const { loader: l, records } = loader({ dirs: [dir] });
    expect(await l.get('winonly.x')).toBeUndefined();
    expect(await l.explain('winonly.x')).toBe("'winonly' __virtual__ returned False: Windows only");
    expect(await l.explain('silent.x')).toBe("'silent' __virtual__ returned False");
    expect(warnings(records)).toEqual([]);
  });

  it('passes the virtual context to virtual()', async () => {
    const dir = await unitDir({
      'k.mjs': mod('k', ['x'], "virtual: (ctx) => ctx.grains.kernel === 'Linux',"),
    });
    const { loader: l } = loader({ dirs: [dir] });
    expect(await l.get('k.x')).toBeDefined();
  });

  it('loads a module under the name virtual() returns', async () => {
    const dir = await unitDir({
      'pkg_linux.mjs': mod('pkg_linux', ['install'], "virtual: () => ({ name: 'pkg' }),"),
    });
    const { loader: l } = loader({ dirs: [dir] });
    expect(await l.get('pkg.install')).toBeDefined();
    expect(await l.get('pkg_linux.install')).toBeUndefined();
    expect(await l.listFunctions()).toEqual(['pkg.install']);
  });

  it('takes a name from the module that loads when another file refusing the same name comes first', async () => {
    const dir = await unitDir({
      'x509.mjs': mod('x509', ['old'], "virtual: () => ({ ok: false, reason: 'deprecated' }),"),
      'x509_v2.mjs': mod('x509_v2', ['create'], "virtual: () => ({ name: 'x509' }),"),
    });
    const { loader: l } = loader({ dirs: [dir] });
    expect(await l.get('x509.create')).toBeDefined();
    expect(await l.explain('x509.old')).toBe("'x509.old' is not available.");
  });

  it('answers to aliases', async () => {
    const dir = await unitDir({ 'cmdmod.mjs': mod('cmd', ['run'], "aliases: ['shell'],") });
    const { loader: l } = loader({ dirs: [dir] });
    const viaAlias = await l.get('shell.run');
    expect(viaAlias).toBeDefined();
    expect(await l.get('cmd.run')).toBe(viaAlias);
    expect(await l.listModules()).toEqual(['cmd', 'shell']);
    expect(await l.listFunctions('shell')).toEqual(['shell.run']);
  });

  it('prefers the file named after a module to another file declaring that name', async () => {
    const high = await unitDir({ 'other.mjs': mod('test', ['who']) });
    const low = await unitDir({ 'test.mjs': mod('test', ['who']) });
    const { loader: l, records } = loader({ dirs: [high, low] });
    expect(await l.get('test.who')).toBeDefined();
    await l.listModules();
    const spec = await l.get('test.who');
    expect(spec?.run({} as never, {}, { args: [], kwargs: {} })).toBe('test.who');
    const warn = warnings(records).find((m) => m.includes("'test'"));
    expect(warn).toContain(join(low, 'test.mjs'));
    expect(warn).toContain(join(high, 'other.mjs'));
  });

  it('reports a syntax error as the reason, logged once at warn', async () => {
    const dir = await unitDir({ 'broken.mjs': 'export default { name: "broken", functions: {\n' });
    const { loader: l, records } = loader({ dirs: [dir] });
    expect(await l.get('broken.x')).toBeUndefined();
    const text = await l.explain('broken.x');
    // Node says `SyntaxError: ...`; under vitest the import goes through Vite, which words it differently.
    expect(text).toMatch(/^'broken' __virtual__ returned False: Failed to import .*broken\.mjs: \w*Error: ./);
    await l.get('broken.y');
    await l.listModules();
    expect(warnings(records).filter((m) => m.includes('broken.mjs'))).toHaveLength(1);
  });

  it('reports a throwing virtual() and an invalid default export', async () => {
    const dir = await unitDir({
      'thrower.mjs': mod('thrower', ['x'], "virtual: () => { throw new Error('no binary'); },"),
      'shapeless.mjs': "export default { name: 'shapeless', functions: { x: () => 1 } };\n",
      'nodefault.mjs': 'export const x = 1;\n',
    });
    const { loader: l } = loader({ dirs: [dir] });
    expect(await l.explain('thrower.x')).toBe(
      "'thrower' __virtual__ returned False: Exception raised when processing __virtual__ function for thrower. Module will not be loaded: no binary",
    );
    expect(await l.explain('shapeless.x')).toBe(
      `'shapeless' __virtual__ returned False: ${join(dir, 'shapeless.mjs')} is not a valid unit: function "x" must be an object with a run() method`,
    );
    expect(await l.explain('nodefault.x')).toContain('is not a valid unit: no default export');
  });

  it('never loads a disabled module, by file stem or by module name', async () => {
    const dir = await unitDir({
      'off.mjs': "throw new Error('disabled files are not imported');\n",
      'renamed.mjs': mod('renamed', ['x'], "virtual: () => ({ name: 'gone' }),"),
      'on.mjs': mod('on', ['x']),
    });
    const { loader: l } = loader({ dirs: [dir], disabled: ['off', 'gone'] });
    expect(await l.get('off.x')).toBeUndefined();
    expect(await l.get('gone.x')).toBeUndefined();
    expect(await l.explain('off.x')).toBe("'off.x' is not available.");
    expect(await l.listModules()).toEqual(['on']);
  });
});

describe('createModuleLoader: explain, lists, docs', () => {
  it('explains unknown modules, unknown functions and available functions', async () => {
    const dir = await unitDir({ 'test.mjs': mod('test', ['ping']) });
    const { loader: l } = loader({ dirs: [dir] });
    expect(await l.explain('nope.fn')).toBe("'nope.fn' is not available.");
    expect(await l.explain('test.nope')).toBe("'test.nope' is not available.");
    expect(await l.explain('nodot')).toBe("'nodot' is not available.");
    expect(await l.explain('test.ping')).toBe("'test.ping' is available.");
    expect(await l.get('nodot')).toBeUndefined();
    expect(await l.get('test.')).toBeUndefined();
    expect(await l.get('test.toString')).toBeUndefined();
  });

  it('lists functions sorted, for all modules or one', async () => {
    const dir = await unitDir({
      'zeta.mjs': mod('zeta', ['b', 'a']),
      'alpha.mjs': mod('alpha', ['z', 'm', 'a_b']),
    });
    const { loader: l } = loader({ dirs: [dir] });
    expect(await l.listFunctions()).toEqual(['alpha.a_b', 'alpha.m', 'alpha.z', 'zeta.a', 'zeta.b']);
    expect(await l.listFunctions('zeta')).toEqual(['zeta.a', 'zeta.b']);
    expect(await l.listFunctions('none')).toEqual([]);
    expect(await l.listModules()).toEqual(['alpha', 'zeta']);
  });

  it('gives module and function docs', async () => {
    const dir = await unitDir({ 'doc.mjs': mod('doc', ['f'], "doc: 'Module doc.',") });
    const { loader: l } = loader({ dirs: [dir] });
    expect(await l.moduleDoc('doc')).toBe('Module doc.');
    expect(await l.functionDoc('doc.f')).toBe('doc.f doc');
    expect(await l.functionDoc('doc.nope')).toBeUndefined();
    expect(await l.moduleDoc('nope')).toBeUndefined();
  });

  it('names the file stem a module was loaded from (its provider)', async () => {
    const dir = await unitDir({
      'aptpkg.mjs': mod('pkg', ['install']),
      'test.mjs': mod('test', ['ping'], "aliases: ['tst'],"),
    });
    const { loader: l } = loader({ dirs: [dir] });
    expect(await l.providerOf('pkg')).toBe('aptpkg');
    expect(await l.providerOf('test')).toBe('test');
    expect(await l.providerOf('tst')).toBe('test');
    expect(await l.providerOf('nope')).toBeUndefined();
  });

  it('keeps one cache per loader', async () => {
    const a = loader({ dirs: [] }).loader;
    const b = loader({ dirs: [] }).loader;
    a.cache.set('k', 1);
    expect(b.cache.has('k')).toBe(false);
    a.reload();
    expect(a.cache.get('k')).toBe(1);
  });
});

describe('createModuleLoader: committed fixtures', () => {
  const fixtures = resolve('test/fixtures/loader');

  it('loads the fixture extension dirs in order', async () => {
    const { loader: l, records } = loader({ dirs: [join(fixtures, 'ext-high'), join(fixtures, 'ext-low')] });
    const spec = await l.get('hello.where');
    expect(spec?.run({} as never, {}, { args: [], kwargs: {} })).toBe('ext-high');
    expect(await l.explain('nowhere.ping')).toBe(
      "'nowhere' __virtual__ returned False: fixture module refuses to load",
    );
    expect(await l.explain('boom.x')).toMatch(
      /^'boom' __virtual__ returned False: Failed to import .*boom\.mjs: Error: boom at import$/,
    );
    expect(await l.listModules()).toEqual(['hello']);
    expect(warnings(records).some((m) => m.includes('ext-low') && m.includes('ext-high'))).toBe(true);
  });
});
