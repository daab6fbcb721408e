/**
 * Test support for the pkg module and states: builds a tiny Debian package (`Architecture:
 * all`, one data file and one conffile) with `dpkg-deb` in a temp folder, and removes a
 * package left behind. Package names must start with `tsalt-t`.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pidIsRunning } from './_proc-jobs.js';

/** Whether this machine can install packages for real (root, dpkg-deb and apt-get present). */
export function canInstallPackages(): boolean {
  if (process.getuid?.() !== 0) return false;
  try {
    execFileSync('dpkg-deb', ['--version'], { stdio: 'ignore' });
    execFileSync('apt-get', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Builds `<name>_<version>_all.deb` in `dir` (a new temp folder by default); returns its path. */
export function buildDeb(
  name: string,
  version: string,
  dir = mkdtempSync(path.join(os.tmpdir(), 'tsalt-t-deb-')),
): string {
  if (!name.startsWith('tsalt-t')) throw new Error(`test package names start with tsalt-t: ${name}`);
  const root = path.join(dir, `${name}-${version}`);
  mkdirSync(path.join(root, 'DEBIAN'), { recursive: true });
  mkdirSync(path.join(root, 'usr', 'share', name), { recursive: true });
  mkdirSync(path.join(root, 'etc'), { recursive: true });
  writeFileSync(
    path.join(root, 'DEBIAN', 'control'),
    `Package: ${name}\nVersion: ${version}\nArchitecture: all\nMaintainer: tsalt tests <t@example.invalid>\nDescription: tsalt test package\n A throwaway package.\n`,
  );
  writeFileSync(path.join(root, 'DEBIAN', 'conffiles'), `/etc/${name}.conf\n`);
  writeFileSync(path.join(root, 'etc', `${name}.conf`), 'conf\n');
  writeFileSync(path.join(root, 'usr', 'share', name, 'hello.txt'), 'hello\n');
  const deb = path.join(dir, `${name}_${version}_all.deb`);
  execFileSync('dpkg-deb', ['--build', '--root-owner-group', root, deb], { stdio: 'ignore' });
  return deb;
}

/** Purges `name` if dpkg knows it (installed, removed or held), quietly. */
export function purgeDeb(name: string): void {
  if (!name.startsWith('tsalt-t')) throw new Error(`test package names start with tsalt-t: ${name}`);
  try {
    execFileSync('dpkg', ['--set-selections'], {
      input: `${name} install\n`,
      stdio: ['pipe', 'ignore', 'ignore'],
    });
  } catch {
    // unknown to dpkg
  }
  // another test file may hold the dpkg lock for a moment: try again, a few times
  for (let n = 0; n < 10; n++) {
    try {
      execFileSync('dpkg', ['--purge', name], { stdio: ['ignore', 'ignore', 'pipe'] });
      return;
    } catch (err) {
      const stderr = String((err as { stderr?: unknown }).stderr ?? '');
      if (!/lock/.test(stderr)) return;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1000);
    }
  }
}

/** Runs dpkg with `args` (and `input` on stdin), waiting while another test file holds its lock. */
export async function dpkgWaiting(args: string[], input?: string): Promise<void> {
  for (let n = 0; ; n++) {
    try {
      execFileSync('dpkg', args, { input, stdio: ['pipe', 'ignore', 'pipe'] });
      return;
    } catch (err) {
      if (n >= 120 || !/lock/.test(String((err as { stderr?: unknown }).stderr ?? ''))) throw err;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

const PACKAGE_TESTS_LOCK = path.join(os.tmpdir(), 'tsalt-t-package-tests.lock');

/**
 * Takes the lock every test file that installs or removes packages holds from its first to
 * its last test, and resolves to its release. A pkg state's or `pkg.install`'s changes are the
 * difference of the package list before and after, as Salt's are: a package another test
 * file installs meanwhile would show in them. A lock whose holder died is taken over.
 */
export async function holdPackageTestsLock(): Promise<() => void> {
  const mine = String(process.pid);
  for (;;) {
    try {
      writeFileSync(PACKAGE_TESTS_LOCK, mine, { flag: 'wx' });
      return () => {
        if (readHolder() === mine) rmSync(PACKAGE_TESTS_LOCK, { force: true });
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = readHolder();
      if (holder && !pidIsRunning(Number(holder))) rmSync(PACKAGE_TESTS_LOCK, { force: true });
      else await new Promise((r) => setTimeout(r, 250));
    }
  }
}

function readHolder(): string | undefined {
  try {
    return readFileSync(PACKAGE_TESTS_LOCK, 'utf8');
  } catch {
    return undefined;
  }
}
