/**
 * Builds the single-file CLIs ({@link BUNDLES}): dist/cli/<name>/bundled.js and the modules it
 * loads, as one CommonJS file, dist/cli/bundle/<name>.cjs, which bin/<name> runs with a V8 code
 * cache (bin/run-bundle.cjs). Node 20's ES module loader costs a CLI run ~1 ms per module and
 * compiles each from source every time; one script with a code cache costs neither.
 *
 * A bundle holds tsalt's own code only. Packages stay outside it, and so do the modules that
 * can load a plugin or zod ({@link COLD}): those stay ES module imports of dist/, so that a
 * plugin and tsalt share one copy of zod and of the kernel. The build fails if a module in a
 * bundle imports a package other than its own list (a package no plugin shares). A script compiled from a code cache
 * cannot `import()` (Node 20 loses its import callback), so the bundle imports them through
 * {@link IMPORTER}, a CommonJS file beside it that Node loads as usual. Part of `npm run build`.
 * `node dist/tools/build-cli-bundle.js [--quiet]`.
 */
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';

/** The checkout this file belongs to (it runs compiled from dist/tools/). */
const REPO = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');

/** dist/-relative modules the bundle imports from dist/ as ES modules when it needs them. */
export const COLD: ReadonlySet<string> = new Set([
  'kernel/config/load.js',
  'outputters/extension-outputters.js',
  'cli/state-output.js',
  'kernel/targeting/expected-minions.js',
  'client/batch.js',
]);

/** The file beside the bundle that imports an ES module for it. */
const IMPORTER = 'esm-import.cjs';

/**
 * The single-file CLIs, by name, with the packages each may require (from node_modules, as
 * CommonJS; none of them is one a plugin shares with the kernel).
 */
export const BUNDLES: Readonly<Record<string, readonly string[]>> = {
  salt: [],
  'salt-key': ['commander'],
  'salt-run': ['commander'],
};

export interface CliBundle {
  readonly file: string;
  readonly bytes: number;
  /** dist/-relative modules in the bundle. */
  readonly modules: readonly string[];
}

/** The relative specifier from the bundle's folder to `abs`. */
export function fromBundle(outDir: string, abs: string): string {
  const rel = relative(outDir, abs);
  return rel.startsWith('.') ? rel : `./${rel}`;
}

/**
 * Keeps {@link COLD} modules as imports of dist/ and gives every bundled module its own
 * `import.meta.url` (its file in dist/), so paths it resolves from there stay right.
 */
function distModules(dist: string, outDir: string, packages: readonly string[]): Plugin {
  return {
    name: 'tsalt-dist-modules',
    setup(b) {
      b.onResolve({ filter: /^\.\.?\// }, (args) => {
        const abs = resolve(args.resolveDir, args.path);
        if (!COLD.has(relative(dist, abs))) return undefined;
        return { path: fromBundle(outDir, abs), external: true };
      });
      b.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.path.startsWith('node:')) return { path: args.path, external: true };
        const pkg = args.path.startsWith('@')
          ? args.path.split('/').slice(0, 2).join('/')
          : args.path.split('/')[0];
        if (!packages.includes(pkg ?? '')) {
          return { errors: [{ text: `${relative(dist, args.importer)} imports the package ${args.path}` }] };
        }
        return { path: args.path, external: true };
      });
      b.onLoad({ filter: /\.js$/ }, (args) => {
        const url = `require("node:url").pathToFileURL(require("node:path").join(__dirname, ${JSON.stringify(fromBundle(outDir, args.path))})).href`;
        const contents = readFileSync(args.path, 'utf8')
          .replaceAll('import.meta.url', `(${url})`)
          .replaceAll(
            'import.meta.dirname',
            `require("node:path").dirname(require("node:url").fileURLToPath(${url}))`,
          );
        return { contents, loader: 'js', resolveDir: dirname(args.path) };
      });
    },
  };
}

/** Builds CLI `name`'s bundle into dist/cli/bundle/ (which must exist). */
export async function buildCliBundle(name: string, repo: string = REPO): Promise<CliBundle> {
  const dist = join(repo, 'dist');
  const outDir = join(dist, 'cli', 'bundle');
  const file = join(outDir, `${name}.cjs`);
  const result = await build({
    entryPoints: [join(dist, 'cli', name, 'bundled.js')],
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    outfile: file,
    plugins: [distModules(dist, outDir, BUNDLES[name] ?? [])],
    metafile: true,
    logLevel: 'warning',
    legalComments: 'none',
  });
  const modules = Object.keys(result.metafile.inputs).map((p) => relative(dist, resolve(repo, p)));
  const text = readFileSync(file, 'utf8').replace(
    /\bimport\(("\.[^"]+")\)/g,
    (_, spec: string) => `require(${JSON.stringify(`./${IMPORTER}`)})(${spec})`,
  );
  const left = /\bimport\(/.exec(text);
  if (left)
    throw new Error(
      `the CLI bundle keeps an import() it cannot run: ${text.slice(left.index, left.index + 80)}`,
    );
  writeFileSync(file, text);
  return { file, bytes: statSync(file).size, modules };
}

/** Builds every CLI bundle afresh, and the importer they share. */
export async function buildCliBundles(repo: string = REPO): Promise<CliBundle[]> {
  const outDir = join(repo, 'dist', 'cli', 'bundle');
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, IMPORTER), 'module.exports = (specifier) => import(specifier);\n');
  const out: CliBundle[] = [];
  for (const name of Object.keys(BUNDLES)) out.push(await buildCliBundle(name, repo));
  return out;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const bundle of await buildCliBundles()) {
    if (!process.argv.includes('--quiet')) {
      process.stdout.write(
        `cli bundle: ${relative(REPO, bundle.file)} ${bundle.bytes} B, ${bundle.modules.length} modules\n`,
      );
    }
  }
}
