/**
 * What one new file costs this machine's filesystem, beside the sign-in figure (issue 25).
 *
 * A fresh minion's sign-in and start-up grains report create four inodes on the master: its
 * accepted key, its session key, its cache folder and `data.p` (Salt's layouts; each file
 * written through a temp file renamed into place, so no reader sees half of it). On the shared
 * development machine ext4's inode allocator was seen taking 0.2-0.6 ms of system CPU per new
 * inode (`perf`: `find_inode_bit` → `recently_deleted`, skipping the inodes other processes
 * deleted in the last seconds), where a quiet disk takes ~20 µs: so the sign-in's CPU is read
 * against this, measured in the master's own folder at the time.
 */
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** New inodes per fresh minion: key, session, cache folder, data.p. */
export const NEW_INODES_PER_SIGN_IN = 4;

/**
 * CPU ms (user + system) per new file written into place as the master writes one (a temp file
 * renamed over its name), `count` of them in a fresh folder under `dir`, which is then removed.
 */
export function newFileCpuMs(dir: string, count = 500): number {
  const scratch = join(dir, `.new-file-cost-${process.pid}`);
  mkdirSync(scratch, { recursive: true });
  const body = 'x'.repeat(450);
  try {
    const before = process.cpuUsage();
    for (let i = 0; i < count; i++) {
      const tmp = join(scratch, `.f${i}.tmp`);
      writeFileSync(tmp, body, { mode: 0o600 });
      renameSync(tmp, join(scratch, `f${i}`));
    }
    const used = process.cpuUsage(before);
    return (used.user + used.system) / 1000 / count;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
