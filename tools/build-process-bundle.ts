/**
 * Builds the job process's entry as one ES module, dist/minion/bundle/job-process.js, holding
 * the modules only the job process loads (issue 25: Node 20's ES module loader costs ~0.6-0.9 ms
 * of CPU a module, and a minion forks a job process for its first job after each idle spell).
 * The minion's executor forks it in place of dist/minion/job-process.js while it is as new
 * (minion/job-process-entry.ts).
 *
 * A module goes in the bundle only when nothing else the process may load can load it too:
 * not the doors plugins import (package.json `exports`), not a built-in plugin (modules/,
 * states/, plugins/, returners/, outputters/), not a module the job process imports later
 * with `import()`, nor anything those load ({@link SHARED_ROOTS}). Those stay imports of their
 * files in dist/, so the process holds one copy of each (one class `SaltError`, one zod, one
 * master link) whichever way a module is reached. `import.meta.url` in a bundled module still
 * names its own file in dist/. Part of `npm run build`. `node dist/tools/build-process-bundle.js [--quiet]`.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { fromBundle } from './build-cli-bundle.js';
import { graphClosure } from './graph-closure.js';

/** The checkout this file belongs to (it runs compiled from dist/tools/). */
const REPO = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');

/** The entries built, dist-relative; each bundle is `<dir>/bundle/<name>`. */
export const PROCESS_ENTRIES: readonly string[] = ['minion/job-process.js'];

/** dist/ folders of built-in plugins: whatever they import is shared. */
const SHARED_ROOTS: readonly string[] = ['modules', 'states', 'plugins', 'returners', 'outputters'];

/** Relative `import`/`export ... from` and `import('...')` with a literal path, in compiled code. */
const IMPORT = /(?:^(?:import|export)\s[^;]*?\bfrom\s*|^import\s*|\bimport\(\s*)(['"])(\.{1,2}\/[^'"]+)\1/gm;
const STATIC_IMPORT = /(?:^(?:import|export)\s[^;]*?\bfrom\s*|^import\s*)(['"])(\.{1,2}\/[^'"]+)\1/gm;

export interface ProcessBundle {
  readonly file: string;
  readonly bytes: number;
  /** dist-relative modules in the bundle. */
  readonly modules: readonly string[];
}

/** The dist-relative modules `file` imports (`re`: static only, or dynamic too). */
function importsOf(dist: string, file: string, re: RegExp): string[] {
  const text = readFileSync(join(dist, file), 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(re)) {
    const target = relative(dist, resolve(dist, dirname(file), m[2] as string));
    if (existsSync(join(dist, target))) out.push(target);
  }
  return out;
}

function closure(dist: string, entries: readonly string[], re: RegExp): Set<string> {
  return graphClosure(entries, (file) => importsOf(dist, file, re));
}

function jsFiles(dist: string, dir: string): string[] {
  if (!existsSync(join(dist, dir))) return [];
  return readdirSync(join(dist, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? jsFiles(dist, join(dir, e.name)) : e.name.endsWith('.js') ? [join(dir, e.name)] : [],
  );
}

/** The dist-relative files package.json's `exports` point plugins at. */
function doors(repo: string): string[] {
  const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as {
    exports: Record<string, string | { default?: string; import?: string }>;
  };
  return Object.values(pkg.exports)
    .map((v) => (typeof v === 'string' ? v : (v.default ?? v.import)))
    .filter((d): d is string => !!d?.startsWith('./dist/') && d.endsWith('.js'))
    .map((d) => d.slice('./dist/'.length));
}

/**
 * The modules `entry` loads up front that nothing else in its process can load: its static
 * import graph less everything reachable, statically or by `import()`, from the doors, the
 * built-in plugins and the modules the graph imports lazily.
 */
export function ownModules(dist: string, entry: string, repo: string = REPO): Set<string> {
  const own = closure(dist, [entry], STATIC_IMPORT);
  const lazy = [...closure(dist, [entry], IMPORT)].filter((f) => !own.has(f));
  const shared = closure(
    dist,
    [...doors(repo), ...SHARED_ROOTS.flatMap((d) => jsFiles(dist, d)), ...lazy],
    IMPORT,
  );
  return new Set([...own].filter((f) => !shared.has(f)));
}

/** Bundles {@link ownModules}; every other relative import becomes one of its file in dist/. */
function ownOnly(dist: string, outDir: string, own: ReadonlySet<string>): Plugin {
  return {
    name: 'tsalt-own-modules',
    setup(b) {
      b.onResolve({ filter: /^\.\.?\// }, (args) => {
        const abs = resolve(args.resolveDir, args.path);
        if (args.kind !== 'dynamic-import' && own.has(relative(dist, abs))) return undefined;
        return { path: fromBundle(outDir, abs), external: true };
      });
      b.onResolve({ filter: /^[^./]/ }, (args) => ({ path: args.path, external: true }));
      b.onLoad({ filter: /\.js$/ }, (args) => {
        const self = JSON.stringify(fromBundle(outDir, args.path));
        const contents = readFileSync(args.path, 'utf8').replaceAll(
          'import.meta.url',
          `new URL(${self}, import.meta.url).href`,
        );
        return { contents, loader: 'js', resolveDir: dirname(args.path) };
      });
    },
  };
}

/** Builds `entry`'s bundle (dist-relative) into `<its folder>/bundle/`. */
export async function buildProcessBundle(entry: string, repo: string = REPO): Promise<ProcessBundle> {
  const dist = join(repo, 'dist');
  const outDir = join(dist, dirname(entry), 'bundle');
  const file = join(outDir, entry.split('/').pop() as string);
  const own = ownModules(dist, entry, repo);
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const result = await build({
    entryPoints: [join(dist, entry)],
    absWorkingDir: repo,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outfile: file,
    plugins: [ownOnly(dist, outDir, own)],
    metafile: true,
    sourcemap: true,
    logLevel: 'warning',
    legalComments: 'none',
  });
  const modules = Object.keys(result.metafile.inputs).map((p) => relative(dist, resolve(repo, p)));
  writeFileSync(`${file}.modules.json`, `${JSON.stringify(modules.sort(), null, 1)}\n`);
  return { file, bytes: statSync(file).size, modules };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const entry of PROCESS_ENTRIES) {
    const bundle = await buildProcessBundle(entry);
    if (!process.argv.includes('--quiet'))
      process.stdout.write(
        `process bundle: ${relative(REPO, bundle.file)} ${bundle.bytes} B, ${bundle.modules.length} modules\n`,
      );
  }
}
