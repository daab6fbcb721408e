/**
 * The console's built front end (index.html, app.js, app.css, written into
 * `dist/plugins/console/assets/` by tools/build-console.ts), read once and kept in memory
 * with a gzip copy of each file.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/** One file of the bundle. */
export interface ConsoleAsset {
  readonly type: string;
  readonly body: Buffer;
  readonly gzip: Buffer;
}

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/** Where the build puts the bundle, beside this module's compiled file. */
export function defaultAssetDir(): string {
  return fileURLToPath(new URL('./assets/', import.meta.url));
}

/** The files of `dir` by name (no sub-folders); empty when the bundle was not built. */
export function loadAssets(dir: string = defaultAssetDir()): ReadonlyMap<string, ConsoleAsset> {
  const out = new Map<string, ConsoleAsset>();
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of names) {
    const type = TYPES[extname(name)];
    if (!type) continue;
    const body = readFileSync(join(dir, name));
    out.set(name, { type, body, gzip: gzipSync(body, { level: 9 }) });
  }
  return out;
}
