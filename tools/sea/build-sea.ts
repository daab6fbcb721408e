/**
 * Builds tsalt's self-contained executable for this machine's OS and architecture: a copy of
 * the running Node with tools/sea/sea-main.cts injected as a single executable application,
 * and, as its asset, the built code (`dist/` without tools, benchmarks and tests), `bin/`,
 * `package.json` and the production dependencies, as one gzipped tar. The server it runs on
 * needs neither Node nor npm nor a compiler.
 *
 * `npm run build && node dist/tools/sea/build-sea.js [output]`
 * (default output: `sea/tsalt-minion-<os>-<arch>`).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const HERE = dirname(fileURLToPath(import.meta.url));
/** The checkout's root (this file runs from tools/sea/, or built from dist/tools/sea/). */
const ROOT = existsSync(resolve(HERE, '../../package.json'))
  ? resolve(HERE, '../..')
  : resolve(HERE, '../../..');
/** The fuse Node looks for to know it carries an application. */
const FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
/** Built folders a server never runs. */
const LEFT_OUT = ['tools', 'bench', 'test'];

interface LockPackage {
  dev?: boolean;
  devOptional?: boolean;
  link?: boolean;
  resolved?: string;
}

/**
 * The folders under node_modules that production installs hold (package-lock.json's view),
 * a linked one (tsalt's zod, `file:packages/zod`) among them: it is copied from its folder.
 */
export function productionPackages(lock: { packages: Record<string, LockPackage> }): string[] {
  // a link's own entry says where it points; its target's says whether it is a dev package
  const target = (info: LockPackage): LockPackage =>
    info.link && info.resolved !== undefined ? (lock.packages[info.resolved] ?? info) : info;
  return Object.entries(lock.packages)
    .filter(([p, info]) => p.startsWith('node_modules/') && !target(info).dev && !target(info).devOptional)
    .map(([p]) => p)
    .filter((p) => !p.slice('node_modules/'.length).includes('/node_modules/'))
    .sort();
}

/** Copies what the executable carries into `stage`. */
function stageApp(stage: string): void {
  for (const entry of ['package.json', 'bin'])
    cpSync(join(ROOT, entry), join(stage, entry), { recursive: true });
  cpSync(join(ROOT, 'dist'), join(stage, 'dist'), {
    recursive: true,
    // the single-file builds run only while as new as the modules they hold (run-bundle.cjs, job-process-entry.ts)
    preserveTimestamps: true,
    filter: (src) => !LEFT_OUT.some((d) => src === join(ROOT, 'dist', d)) && !src.endsWith('.map'),
  });
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8'));
  for (const pkg of productionPackages(lock)) {
    cpSync(realpathSync(join(ROOT, pkg)), join(stage, pkg), { recursive: true, verbatimSymlinks: true });
  }
}

export interface BuiltExecutable {
  path: string;
  bytes: number;
  assetBytes: number;
}

/** Builds the executable at `output`. */
export function buildExecutable(output: string): BuiltExecutable {
  const work = mkdtempSync(join(tmpdir(), 'tsalt-sea-'));
  try {
    const stage = join(work, 'app');
    mkdirSync(stage);
    stageApp(stage);
    const tar = execFileSync(
      'tar',
      ['--format=gnu', '--owner=0', '--group=0', '-C', stage, '-cf', '-', '.'],
      {
        maxBuffer: 1024 * 1024 * 1024,
      },
    );
    const asset = join(work, 'app.tar.gz');
    writeFileSync(asset, gzipSync(tar, { level: 9 }));
    writeFileSync(join(work, 'app.sha256'), createHash('sha256').update(tar).digest('hex'));
    const blob = join(work, 'sea.blob');
    writeFileSync(
      join(work, 'sea-config.json'),
      JSON.stringify({
        main: join(ROOT, 'dist', 'tools', 'sea', 'sea-main.cjs'),
        output: blob,
        disableExperimentalSEAWarning: true,
        assets: { 'app.tar.gz': asset, 'app.sha256': join(work, 'app.sha256') },
      }),
    );
    execFileSync(process.execPath, ['--experimental-sea-config', join(work, 'sea-config.json')], {
      stdio: 'pipe',
    });
    mkdirSync(dirname(output), { recursive: true });
    rmSync(output, { force: true });
    copyFileSync(process.execPath, output);
    const postject = createRequire(import.meta.url).resolve('postject/dist/cli.js');
    execFileSync(process.execPath, [postject, output, 'NODE_SEA_BLOB', blob, '--sentinel-fuse', FUSE], {
      stdio: 'pipe',
    });
    return { path: output, bytes: statSync(output).size, assetBytes: statSync(asset).size };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const output = resolve(
    process.argv[2] ?? join(ROOT, 'sea', `tsalt-minion-${process.platform}-${process.arch}`),
  );
  const built = buildExecutable(output);
  const mib = (n: number): string => (n / 1024 / 1024).toFixed(1);
  process.stdout.write(
    `${built.path}: ${mib(built.bytes)} MiB (code and dependencies: ${mib(built.assetBytes)} MiB)\n`,
  );
}
