/**
 * The `zmqversion` grain without loading the zeromq native addon in every CLI run: the
 * addon costs ~20-40 ms to load, and its libzmq version only changes with the zeromq package.
 * The answer is kept in the user cache folder, keyed by the package version, Node's ABI and
 * the architecture; a missing or stale entry loads the addon once and rewrites it.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { userCacheDir } from '../kernel/cache/user-cache-dir.js';

let memo: string | undefined;

function packageKey(req: NodeJS.Require): string | undefined {
  try {
    const pkg = JSON.parse(readFileSync(req.resolve('zeromq/package.json'), 'utf8')) as { version?: unknown };
    return `${String(pkg.version)}/${process.versions.modules}/${process.arch}`;
  } catch {
    return undefined;
  }
}

function fromAddon(req: NodeJS.Require): string {
  try {
    const mod = req('zeromq') as { version?: unknown };
    return typeof mod.version === 'string' ? mod.version : '';
  } catch {
    return '';
  }
}

/** The libzmq version the zeromq package links, or undefined when the package is unusable. */
export function zmqVersion(): string | undefined {
  if (memo !== undefined) return memo || undefined;
  const req = createRequire(import.meta.url);
  const key = packageKey(req);
  const file = join(userCacheDir(), 'zmqversion.json');
  if (key !== undefined) {
    try {
      const cached = JSON.parse(readFileSync(file, 'utf8')) as { key?: unknown; version?: unknown };
      if (cached.key === key && typeof cached.version === 'string') {
        memo = cached.version;
        return memo || undefined;
      }
    } catch {
      // no entry yet, or an unreadable one: ask the addon
    }
  }
  memo = fromAddon(req);
  if (key !== undefined && memo) {
    try {
      mkdirSync(userCacheDir(), { recursive: true, mode: 0o700 });
      const tmp = `${file}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify({ key, version: memo }));
      renameSync(tmp, file);
    } catch {
      // a read-only home: the next run asks the addon again
    }
  }
  return memo || undefined;
}
