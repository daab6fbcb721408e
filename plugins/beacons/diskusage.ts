/**
 * The `diskusage` beacon (Salt's `salt/beacons/diskusage.py`): each config key is a mount point
 * or a regular expression matched from the start of every mounted file system (all of
 * `/proc/self/mounts`, psutil's `disk_partitions(all=True)`); a file system at or above its
 * threshold fires `{diskusage: <percent used>, mount}` (psutil's `disk_usage().percent`).
 *
 *   beacons:
 *     diskusage:
 *       - /: 63%
 *       - '^\/(?!home).*$': 90%
 */
import { readFileSync, statfsSync } from 'node:fs';
import { defineBeacon } from '../../kernel/index.js';
import { percentThreshold, usagePercent } from './_pynum.js';

/** The mount points in `/proc/self/mounts` order, octal escapes (`\040`) decoded. */
function mountPoints(): string[] {
  return readFileSync('/proc/self/mounts', 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) =>
      (l.split(' ')[1] ?? '').replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8))),
    );
}

/** psutil's percent used: used / (used + available to users). */
function percentUsed(mount: string): number {
  const s = statfsSync(mount);
  const used = (s.blocks - s.bfree) * s.bsize;
  return usagePercent(used, used + s.bavail * s.bsize);
}

export default defineBeacon({
  name: 'diskusage',
  doc: 'Emit the usage of each mounted file system at or above its threshold.',
  beacon(ctx, config) {
    const parts = mountPoints();
    const ret: Array<{ diskusage: number; mount: string }> = [];
    for (const [mount, threshold] of Object.entries(config)) {
      if (mount.startsWith('_')) continue;
      const re = new RegExp(`^(?:${mount.endsWith('$') ? mount : `${mount}$`})`);
      for (const part of parts) {
        if (!re.test(part)) continue;
        let current: number;
        try {
          current = percentUsed(part);
        } catch {
          ctx.log.warn({ mount: part }, `${part} is not a valid mount point.`);
          continue;
        }
        if (current >= percentThreshold(threshold)) ret.push({ diskusage: current, mount: part });
      }
    }
    return ret;
  },
});
