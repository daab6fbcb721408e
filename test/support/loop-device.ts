/**
 * Loop devices over throwaway image files, for the tests of block-device modules: `losetup -f
 * --show`, or undefined where this machine or container has no loop devices to give.
 */
import { execFileSync } from 'node:child_process';
import { truncateSync, writeFileSync } from 'node:fs';

/** An empty (sparse) image file of `mib` MiB at `img`. */
export function sparseImage(img: string, mib: number): void {
  writeFileSync(img, '');
  truncateSync(img, mib * 1024 * 1024);
}

/** A loop device over `img`, or undefined when none can be set up here. */
export function attachLoop(img: string): string | undefined {
  try {
    return execFileSync('losetup', ['-f', '--show', img], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** Detaches a loop device; one already gone is fine. */
export function detachLoop(dev: string): void {
  try {
    execFileSync('losetup', ['-d', dev], { stdio: 'ignore' });
  } catch {
    // already detached
  }
}
