/**
 * Builds the web console's front end (plugins/console/web: Preact + htm) with esbuild into
 * `dist/plugins/console/assets/` (index.html, app.js, app.css), where the console plugin serves
 * it from. Part of `npm run build` (and so of `npm ci`'s prepare). Prints each file's size and
 * gzip size. `node dist/tools/build-console.js [--quiet]`.
 */
import { copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

/** The checkout this file belongs to (it runs compiled from dist/tools/). */
const REPO = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');

export interface BundleFile {
  readonly name: string;
  readonly bytes: number;
  readonly gzip: number;
}

export async function buildConsole(repo: string = REPO): Promise<BundleFile[]> {
  const src = join(repo, 'plugins', 'console', 'web');
  const out = join(repo, 'dist', 'plugins', 'console', 'assets');
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  await build({
    entryPoints: [join(src, 'main.ts')],
    bundle: true,
    format: 'esm',
    target: ['es2022'],
    minify: true,
    legalComments: 'none',
    outfile: join(out, 'app.js'),
    logLevel: 'warning',
  });
  await build({
    entryPoints: [join(src, 'app.css')],
    bundle: true,
    minify: true,
    outfile: join(out, 'app.css'),
    logLevel: 'warning',
  });
  copyFileSync(join(src, 'index.html'), join(out, 'index.html'));
  return ['index.html', 'app.js', 'app.css'].map((name) => {
    const body = readFileSync(join(out, name));
    return { name, bytes: body.length, gzip: gzipSync(body, { level: 9 }).length };
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const files = await buildConsole();
  if (!process.argv.includes('--quiet')) {
    const total = files.reduce((n, f) => n + f.gzip, 0);
    process.stdout.write(
      `console: ${files.map((f) => `${f.name} ${f.bytes} B (gzip ${f.gzip} B)`).join(', ')}; gzip total ${total} B\n`,
    );
  }
}
