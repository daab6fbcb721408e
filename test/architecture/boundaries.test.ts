/**
 * Who may import whom (docs/architecture.md): the kernel imports nothing outside kernel/, so it
 * holds no feature; the public client only the kernel; built-ins (plugins, modules, states, returners, outputters) do not reach into the
 * master's and the minion's application code. Reads every non-test source file's relative
 * imports (static, dynamic and re-exports) and resolves them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../../tools/local-cluster.js';

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.{1,2}\/[^'"]+)\1/g;

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(REPO, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sources(path));
    else if (/\.ts$/.test(entry.name) && !/\.test(-d)?\.ts$/.test(entry.name)) out.push(path);
  }
  return out;
}

/** Each file's relative imports, as repository paths (`plugins/netapi/server.js`). */
function importsOf(file: string): string[] {
  const text = readFileSync(join(REPO, file), 'utf8');
  return [...text.matchAll(IMPORT)].map((m) => relative(REPO, resolve(REPO, dirname(file), m[2]!)));
}

/** `file → target` for every import of a file under `from` that lands under one of `forbidden`. */
function crossings(from: string, forbidden: readonly string[]): string[] {
  return sources(from).flatMap((file) =>
    importsOf(file)
      .filter((target) => forbidden.some((dir) => target === dir || target.startsWith(`${dir}${sep}`)))
      .map((target) => `${file} → ${target}`),
  );
}

/** The import cycles among `files` (Tarjan's strongly connected components of two files or more). */
function cycles(files: readonly string[], edges: (file: string) => readonly string[]): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of edges(v)) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    for (;;) {
      const w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
      if (w === v) break;
    }
    if (component.length > 1) found.push(component.sort());
  };
  for (const f of files) if (!index.has(f)) visit(f);
  return found;
}

/**
 * `file: path` for every string literal of a file under `from` that names a relative path
 * outside `from` (`new URL('../../plugins/engines/', import.meta.url)`, `'../../returners/x.js'`):
 * a folder of built-ins named by the kernel, whether imported or not.
 */
function pathsOutside(from: string): string[] {
  return sources(from).flatMap((file) =>
    [...readFileSync(join(REPO, file), 'utf8').matchAll(/(['"`])(\.{1,2}\/[^'"`\n]*)\1/g)]
      .map((m) => m[2]!)
      .filter((path) => {
        const target = relative(REPO, resolve(REPO, dirname(file), path));
        return target !== from && !target.startsWith(`${from}${sep}`);
      })
      .map((path) => `${file}: ${path}`),
  );
}

/** `plugins/<name>` for a file in a plugin's folder; `undefined` for the files beside them. */
function pluginOf(file: string): string | undefined {
  const parts = file.split(sep);
  return parts[0] === 'plugins' && parts.length > 2 ? `plugins${sep}${parts[1]}` : undefined;
}

/**
 * `file → target` for every import that reaches into another plugin past its doors: a plugin's
 * files are reached from outside only through an `index.ts` (the plugin's, or a sub-folder's),
 * and its `options.ts` (its option set, which the config loader reads without the plugin).
 */
function pastPluginDoors(files: readonly string[], imports = importsOf): string[] {
  return files.flatMap((file) =>
    imports(file)
      .filter((target) => {
        const owner = pluginOf(target);
        const door = target.endsWith(`${sep}index.js`) || target.endsWith(`${sep}options.js`);
        return owner !== undefined && owner !== pluginOf(file) && !door;
      })
      .map((target) => `${file} → ${target}`),
  );
}

/** The folders of the product's source code, the kernel first. */
const SOURCE_FOLDERS = [
  'kernel',
  'master',
  'minion',
  'client',
  'plugins',
  'modules',
  'states',
  'returners',
  'outputters',
  'cli',
];

/** Every top-level folder of code outside the kernel. */
const TOP = [...SOURCE_FOLDERS.slice(1), 'tools', 'bench', 'test'];

describe('import boundaries', () => {
  it('the kernel imports nothing outside kernel/', () => {
    expect(crossings('kernel', TOP)).toEqual([]);
  });

  it('the kernel stays small: under 15,000 non-test lines', () => {
    const lines = sources('kernel').reduce(
      (n, f) => n + readFileSync(join(REPO, f), 'utf8').split('\n').length - 1,
      0,
    );
    expect(lines).toBeLessThan(15_000);
  });

  it("the kernel names no path outside kernel/: the built-in folders are its callers' to pass", () => {
    expect(pathsOutside('kernel')).toEqual([]);
  });

  it('finds a path outside when there is one (the rule can fail)', () => {
    // plugins/builtin-dirs.ts names modules/ and returners/
    expect(pathsOutside('plugins').length).toBeGreaterThan(0);
  });

  it('the public client (client/, `tsalt/client`) imports only the kernel', () => {
    expect(
      crossings(
        'client',
        TOP.filter((dir) => dir !== 'client'),
      ),
    ).toEqual([]);
  });

  it('finds a crossing when there is one (the rule can fail)', () => {
    expect(crossings('master', ['plugins']).length).toBeGreaterThan(0);
  });

  it("built-ins do not import the master's or the minion's application code", () => {
    const found = ['plugins', 'modules', 'states', 'returners', 'outputters'].flatMap((dir) =>
      crossings(dir, ['master', 'minion']),
    );
    expect(found).toEqual([]);
  });

  it('built-ins reach the kernel only through its public doors, the modules package.json exports', () => {
    const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as {
      exports: Record<string, { default: string }>;
    };
    // `./dist/kernel/util.js` → `kernel/util.ts`
    const doors = Object.values(pkg.exports).map((e) =>
      e.default.replace(/^\.\/dist\//, '').replace(/\.js$/, '.ts'),
    );
    expect(doors).toContain('kernel/index.ts');
    const inside = ['plugins', 'modules', 'states', 'returners', 'outputters'].flatMap((dir) =>
      crossings(dir, ['kernel']).filter(
        (edge) => !doors.includes(edge.split(' → ')[1]!.replace(/\.js$/, '.ts')),
      ),
    );
    expect(inside).toEqual([]);
    // the rule can fail: the master's own code goes past the doors
    expect(
      crossings('master', ['kernel']).some(
        (edge) => !doors.some((d) => edge.endsWith(d.replace(/\.ts$/, '.js'))),
      ),
    ).toBe(true);
  });

  it('built-ins reach another plugin only through its doors, an index.ts', () => {
    const builtins = ['plugins', 'modules', 'states', 'returners', 'outputters'].flatMap((dir) =>
      sources(dir),
    );
    expect(pastPluginDoors(builtins)).toEqual([]);
    // the rule can fail: a stranger reaching past the door is found, the plugin itself is not
    const inside = () => [`plugins${sep}mine${sep}mine-acl.js`];
    expect(pastPluginDoors([`modules${sep}x.ts`], inside)).toHaveLength(1);
    expect(pastPluginDoors([`plugins${sep}mine${sep}index.ts`], inside)).toEqual([]);
  });

  it('no source file takes part in an import cycle', () => {
    const files = SOURCE_FOLDERS.flatMap((dir) => sources(dir));
    const known = new Set(files);
    const edges = (file: string): string[] =>
      importsOf(file)
        .map((target) => target.replace(/\.js$/, '.ts'))
        .filter((target) => known.has(target));
    expect(cycles(files, edges)).toEqual([]);
    // the finder finds one when there is one
    const loop: Record<string, string[]> = { a: ['b'], b: ['c'], c: ['a'], d: ['a'] };
    expect(cycles(Object.keys(loop), (f) => loop[f] ?? [])).toEqual([['a', 'b', 'c']]);
  });
});
