/**
 * One self-contained executable (tools/sea/build-sea.ts) for every test that needs one: built
 * once per content of what it carries (the built code, `bin/`, `package.json`, the lock file,
 * this Node) and kept under the temp folder, so the test files that use it (sea-minion,
 * bootstrap, deb-package) and later runs of the same build share one 20-60 s build. Test files
 * running at once wait for the one that builds (a lock folder naming its pid).
 */
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { REPO } from '../../tools/local-cluster.js';
import { type BuiltExecutable, buildExecutable } from '../../tools/sea/build-sea.js';

const CACHE = join(tmpdir(), 'tsalt-sea-cache');
/** Builds not used for this long are removed when another one is built. */
const KEEP_MS = 6 * 3600_000;
/** The longest a build may take before a waiting test gives up. */
const BUILD_WAIT_MS = 15 * 60_000;

function files(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(e.parentPath, e.name);
    if (e.isDirectory()) files(p, out);
    else if (!e.name.endsWith('.map')) out.push(p);
  }
  return out;
}

/** The hash of everything the executable is made of. */
export function executableKey(): string {
  const h = createHash('sha256').update(`${process.version} ${process.arch} ${process.execPath}\n`);
  const parts = [
    ...files(join(REPO, 'dist')).filter((p) => !/^dist\/(bench|test)\//.test(relative(REPO, p))),
    ...files(join(REPO, 'bin')),
    join(REPO, 'package.json'),
    join(REPO, 'package-lock.json'),
  ].sort();
  for (const p of parts)
    h.update(`${relative(REPO, p)}\0`)
      .update(readFileSync(p))
      .update('\0');
  return h.digest('hex').slice(0, 32);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as { code?: string }).code === 'EPERM';
  }
}

const sleep = (ms: number): void => {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
};

function prune(keep: string): void {
  for (const e of readdirSync(CACHE)) {
    const p = join(CACHE, e);
    if (e === keep || e.endsWith('.lock')) continue;
    if (Date.now() - statSync(p).mtimeMs > KEEP_MS) rmSync(p, { recursive: true, force: true });
  }
}

/**
 * The executable of this build: from the cache, or built now (once, whichever test asks first).
 * Callers copy or run it; they never change it.
 */
export function sharedExecutable(): BuiltExecutable {
  const key = executableKey();
  const dir = join(CACHE, key);
  const exe = join(dir, 'tsalt');
  const meta = join(dir, 'built.json');
  const lock = join(CACHE, `${key}.lock`);
  mkdirSync(CACHE, { recursive: true, mode: 0o700 });
  const deadline = Date.now() + BUILD_WAIT_MS;
  for (;;) {
    if (existsSync(meta)) {
      const now = new Date();
      utimesSync(dir, now, now);
      return JSON.parse(readFileSync(meta, 'utf8')) as BuiltExecutable;
    }
    try {
      mkdirSync(lock);
    } catch {
      // another test builds it: wait for it, or take over when its builder died
      const holder = Number(existsSync(join(lock, 'pid')) ? readFileSync(join(lock, 'pid'), 'utf8') : '0');
      if (holder && !alive(holder)) rmSync(lock, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`no executable built in ${BUILD_WAIT_MS} ms (lock ${lock})`);
      sleep(500);
      continue;
    }
    try {
      writeFileSync(join(lock, 'pid'), String(process.pid));
      prune(key);
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      const built = buildExecutable(join(dir, `tsalt.${process.pid}.tmp`));
      renameSync(built.path, exe);
      const result: BuiltExecutable = { ...built, path: exe };
      writeFileSync(meta, JSON.stringify(result));
      return result;
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}
