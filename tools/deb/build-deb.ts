/**
 * Builds tsalt's Debian packages (layout.ts) with dpkg-deb from this checkout's build: the
 * self-contained executable (tools/sea/, built here unless `--exe` names one), links for the
 * commands, the default configs as conffiles, the systemd units and sysvinit scripts of
 * packaging/, and the maintainer scripts (maintainer-scripts.ts).
 *
 * `npm run build:deb -- [--out DIR] [--version V] [--exe FILE]`
 * (default: `deb/`, package.json's version with the Debian revision 1, a fresh executable).
 */
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildExecutable } from '../sea/build-sea.js';
import { COMMON, type DebPackage, debianArch, EXECUTABLE, INIT_FUNCTIONS, PACKAGES } from './layout.js';
import { maintainerScripts } from './maintainer-scripts.js';

const HERE = dirname(fileURLToPath(import.meta.url));
/** The checkout's root (this file runs from tools/deb/, or built from dist/tools/deb/). */
const ROOT = existsSync(resolve(HERE, '../../package.json'))
  ? resolve(HERE, '../..')
  : resolve(HERE, '../../..');
const PACKAGING = join(ROOT, 'packaging');
const MAINTAINER = 'tsalt developers <tsalt@localhost>';

export interface BuildDebOptions {
  /** Folder the .deb files are written to. */
  out: string;
  /** The Debian version (`0.1.0-1`). */
  version: string;
  /** A built executable to package (else one is built now). */
  exe?: string;
  /** gzip level of the packages (dpkg-deb's default, 9, unless given: 1 builds much faster). */
  level?: number;
}

export interface BuiltDeb {
  name: string;
  path: string;
  bytes: number;
}

/** The folder name the executable unpacks its code into (the hash of that code). */
export function executableHash(exe: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'tsalt-deb-hash-'));
  try {
    execFileSync(exe, ['salt-call', '--version'], {
      env: { ...process.env, TSALT_SEA_DIR: dir },
      stdio: 'pipe',
    });
    const [hash] = readdirSync(dir).filter((d) => /^[0-9a-f]{64}$/.test(d));
    if (!hash) throw new Error(`${exe} unpacked nothing`);
    return hash;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function put(root: string, path: string, content: string | Buffer, mode = 0o644): void {
  const file = join(root, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, content);
  chmodSync(file, mode);
}

function du(dir: string): number {
  let bytes = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(entry.parentPath, entry.name);
    if (entry.isDirectory()) bytes += du(p);
    else if (entry.isFile()) bytes += statSync(p).size;
  }
  return bytes;
}

/** Writes `pkg`'s files into `root` and returns its conffiles. */
function stageFiles(pkg: DebPackage, root: string, exe: string): string[] {
  const conffiles: string[] = [];
  for (const dir of pkg.dirs) mkdirSync(join(root, dir), { recursive: true, mode: 0o755 });
  if (pkg === COMMON) {
    mkdirSync(join(root, dirname(EXECUTABLE)), { recursive: true });
    copyFileSync(exe, join(root, EXECUTABLE));
    chmodSync(join(root, EXECUTABLE), 0o755);
    put(root, INIT_FUNCTIONS, readFileSync(join(PACKAGING, 'sysvinit/salt-init.sh')));
  }
  for (const command of pkg.commands) {
    mkdirSync(join(root, 'usr/bin'), { recursive: true });
    symlinkSync(relative('/usr/bin', EXECUTABLE), join(root, 'usr/bin', command));
  }
  if (pkg.config) {
    put(root, `etc/salt/${pkg.config}`, readFileSync(join(PACKAGING, 'conf', pkg.config)), 0o640);
    conffiles.push(`/etc/salt/${pkg.config}`);
  }
  if (pkg.service) {
    const unit = `${pkg.service}.service`;
    put(root, `lib/systemd/system/${unit}`, readFileSync(join(PACKAGING, 'systemd', unit)));
    put(root, `etc/init.d/${pkg.service}`, readFileSync(join(PACKAGING, 'sysvinit', pkg.service)), 0o755);
    conffiles.push(`/etc/init.d/${pkg.service}`);
  }
  put(
    root,
    `usr/share/doc/${pkg.name}/copyright`,
    'tsalt: SaltStack rebuilt in TypeScript.\nLicense: Apache-2.0 (/usr/share/common-licenses/Apache-2.0)\n',
  );
  return conffiles;
}

function control(pkg: DebPackage, version: string, installedBytes: number): string {
  const depends =
    pkg === COMMON
      ? 'libc6 (>= 2.28), libstdc++6, libgcc-s1 | libgcc1, passwd'
      : `tsalt-common (= ${version})`;
  const description = pkg.description
    .split('\n')
    .map((l) => ` ${l}`)
    .join('\n');
  return `Package: ${pkg.name}
Version: ${version}
Architecture: ${debianArch()}
Maintainer: ${MAINTAINER}
Installed-Size: ${Math.ceil(installedBytes / 1024)}
Depends: ${depends}
Conflicts: ${pkg.replaces}
Section: admin
Priority: optional
Homepage: https://github.com/saltstack/salt
Description: ${pkg.summary}
${description}
`;
}

/** Builds one .deb per package of layout.ts into `opts.out`. */
export function buildDebs(opts: BuildDebOptions): BuiltDeb[] {
  const work = mkdtempSync(join(tmpdir(), 'tsalt-deb-'));
  try {
    const exe = opts.exe ?? buildExecutable(join(work, 'tsalt')).path;
    const hash = executableHash(exe);
    mkdirSync(opts.out, { recursive: true });
    return PACKAGES.map((pkg) => {
      const root = join(work, pkg.name);
      mkdirSync(join(root, 'DEBIAN'), { recursive: true });
      const conffiles = stageFiles(pkg, root, exe);
      writeFileSync(join(root, 'DEBIAN/control'), control(pkg, opts.version, du(root)));
      if (conffiles.length > 0) writeFileSync(join(root, 'DEBIAN/conffiles'), `${conffiles.join('\n')}\n`);
      for (const [name, text] of Object.entries(maintainerScripts(pkg, hash))) {
        put(root, `DEBIAN/${name}`, text, 0o755);
      }
      const path = join(opts.out, `${pkg.name}_${opts.version}_${debianArch()}.deb`);
      execFileSync(
        'dpkg-deb',
        ['--root-owner-group', '-Zgzip', `-z${opts.level ?? 9}`, '--build', root, path],
        { stdio: 'pipe' },
      );
      return { name: pkg.name, path, bytes: statSync(path).size };
    });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: { out: { type: 'string' }, version: { type: 'string' }, exe: { type: 'string' } },
  });
  const pkgVersion = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string })
    .version;
  const built = buildDebs({
    out: resolve(values.out ?? join(ROOT, 'deb')),
    version: values.version ?? `${pkgVersion}-1`,
    exe: values.exe && resolve(values.exe),
  });
  for (const deb of built) process.stdout.write(`${deb.path}: ${(deb.bytes / 1024 / 1024).toFixed(1)} MiB\n`);
}
