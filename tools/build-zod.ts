/**
 * Builds tsalt's `zod` (packages/zod, installed as the `zod` dependency): the real zod package,
 * installed as `zod-upstream`, as a few ES module files in packages/zod/dist/ (issue 25).
 *
 * Node 20's ES module loader costs ~0.6-0.9 ms a module, and `import 'zod'` loads 95 of them,
 * 63 of those its locales (`zod/v4/core` and `zod`'s classic API both re-export them as
 * `locales`). Every `import 'zod'` in a tsalt process, tsalt's own and a plugin's in the same
 * `node_modules` tree, resolves to packages/zod, so the files built here stay one copy of zod
 * per process: each entry (`zod`, `zod/v4`, `zod/v4/core`, `zod/mini`, ...) is one file over
 * chunks they share. The locales other than English (the default every schema registers) are
 * not built in: `z.locales.<name>()` (and `zod/v4/locales/<file>.js`) loads zod's own
 * CommonJS build of that locale when called, as the locale functions hold no state of zod's.
 *
 * Part of `npm run build` and `prepare`, before anything that imports zod runs.
 * `node dist/tools/build-zod.js [--quiet]`.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';

/** The checkout this file belongs to (it runs compiled from dist/tools/). */
const REPO = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');

/** packages/zod's entries (dist-relative, no `.js`) and the zod-upstream module each is built from. */
export const ENTRIES: Readonly<Record<string, string>> = {
  index: 'zod-upstream',
  'v4/index': 'zod-upstream/v4',
  'v4/core/index': 'zod-upstream/v4/core',
  mini: 'zod-upstream/mini',
  'v4/mini/index': 'zod-upstream/v4/mini',
  'v4-mini': 'zod-upstream/v4-mini',
  v3: 'zod-upstream/v3',
  compile: 'zod-upstream/compile',
};

/** The locale every zod schema registers on its first construction, built in. */
const BUILT_IN_LOCALE = 'en';

/** `export { default as <name> } from "./<file>.js"` lines of zod's locales index: name → file. */
export function localeFiles(indexText: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of indexText.matchAll(
    /export\s*\{\s*default as (\w+)\s*\}\s*from\s*["']\.\/([\w-]+)\.js["']/g,
  ))
    out.set(m[1] as string, m[2] as string);
  return out;
}

/** The module that stands for zod's locales index: English built in, the others loaded when called. */
export function localesModule(locales: ReadonlyMap<string, string>): string {
  const lines = [
    "import { createRequire } from 'node:module';",
    `export { default as ${BUILT_IN_LOCALE} } from 'zod-upstream/v4/locales/${locales.get(BUILT_IN_LOCALE) ?? BUILT_IN_LOCALE}.js';`,
    'const load = createRequire(import.meta.url);',
    "/** A locale of zod's own CommonJS build, loaded on its first call. */",
    "// zod's CommonJS locale is its function (module.exports), or holds it as `default`",
    'const lazy = (file) => (...args) => {',
    "  const m = load('zod-upstream/v4/locales/' + file + '.cjs');",
    "  return (typeof m === 'function' ? m : m.default)(...args);",
    '};',
  ];
  for (const [name, file] of locales)
    if (name !== BUILT_IN_LOCALE) lines.push(`export const ${name} = lazy(${JSON.stringify(file)});`);
  return `${lines.join('\n')}\n`;
}

const LOCALES = 'tsalt-zod-locales';

/** Sends every import of zod's locales index to {@link localesModule}. */
function localesStandIn(indexFile: string, text: string): Plugin {
  return {
    name: LOCALES,
    setup(b) {
      b.onResolve({ filter: /locales(\/index\.js)?$/ }, (args) => {
        if (args.path === LOCALES) return { path: LOCALES, namespace: LOCALES };
        if (!args.resolveDir || !/^\.\.?\//.test(args.path)) return undefined;
        const abs = resolve(args.resolveDir, args.path);
        return abs === indexFile ? { path: LOCALES, namespace: LOCALES } : undefined;
      });
      b.onLoad({ filter: /.*/, namespace: LOCALES }, () => ({
        contents: text,
        loader: 'js',
        resolveDir: dirname(indexFile),
      }));
    },
  };
}

export interface BuiltZod {
  readonly dir: string;
  readonly files: number;
  readonly bytes: number;
}

/** Builds packages/zod/dist afresh from the installed zod-upstream. */
export async function buildZod(repo: string = REPO): Promise<BuiltZod> {
  const pkg = join(repo, 'packages', 'zod');
  const out = join(pkg, 'dist');
  const req = createRequire(join(pkg, 'package.json'));
  const upstream = dirname(req.resolve('zod-upstream/package.json'));
  const indexFile = join(upstream, 'v4', 'locales', 'index.js');
  const locales = localeFiles(readFileSync(indexFile, 'utf8'));
  if (!locales.has(BUILT_IN_LOCALE))
    throw new Error(`zod's locales index (${indexFile}) names no ${BUILT_IN_LOCALE}`);
  const entryPoints: Record<string, string> = { locales: LOCALES };
  for (const [name, spec] of Object.entries(ENTRIES)) entryPoints[name] = spec;
  rmSync(out, { recursive: true, force: true });
  await build({
    entryPoints,
    absWorkingDir: pkg,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outdir: out,
    chunkNames: 'chunks/[name]-[hash]',
    mainFields: ['module', 'main'],
    conditions: ['import'],
    // zod-upstream is resolved here and built in; only the lazy locales' require() stays outside
    plugins: [localesStandIn(indexFile, localesModule(locales))],
    logLevel: 'warning',
    legalComments: 'none',
  });
  // zod/v4/locales/<file>.js, as zod has them: each the locale function of the locales module
  mkdirSync(join(out, 'v4', 'locales'), { recursive: true });
  for (const [name, file] of locales)
    writeFileSync(
      join(out, 'v4', 'locales', `${file}.js`),
      `export { ${name} as default } from '../../locales.js';\n`,
    );
  const files = listFiles(out);
  return { dir: out, files: files.length, bytes: files.reduce((s, f) => s + statSync(f).size, 0) };
}

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? listFiles(join(dir, e.name)) : [join(dir, e.name)],
  );
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const built = await buildZod();
  if (!process.argv.includes('--quiet'))
    process.stdout.write(`zod: ${relative(REPO, built.dir)} ${built.files} files, ${built.bytes} B\n`);
}
