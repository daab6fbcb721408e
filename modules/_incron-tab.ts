/**
 * Salt's incrontab model (`salt/modules/incron.py`): a table's text split into jobs (lines of
 * more than three words: path, mask, command) and the other lines (`pre`), rendered back the
 * same way, and the masks Salt accepts. Pure functions: no I/O here.
 */
import { pySplitlines } from '../kernel/util.js';
import { pySplit } from './_status-proc.js';

export interface IncronJob {
  path: string;
  mask: string;
  cmd: string;
}

export interface IncronTab {
  crons: IncronJob[];
  pre: string[];
}

export const MASK_TYPES: ReadonlySet<string> = new Set([
  'IN_ACCESS',
  'IN_ATTRIB',
  'IN_CLOSE_WRITE',
  'IN_CLOSE_NOWRITE',
  'IN_CREATE',
  'IN_DELETE',
  'IN_DELETE_SELF',
  'IN_MODIFY',
  'IN_MOVE_SELF',
  'IN_MOVED_FROM',
  'IN_MOVED_TO',
  'IN_OPEN',
  'IN_ALL_EVENTS',
  'IN_MOVE',
  'IN_CLOSE',
  'IN_DONT_FOLLOW',
  'IN_ONESHOT',
  'IN_ONLYDIR',
  'IN_NO_LOOP',
]);

/** The first of the comma-separated masks Salt does not know, as its message, or undefined. */
export function badMask(mask: string): string | undefined {
  const bad = mask.split(',').find((m) => !MASK_TYPES.has(m));
  return bad === undefined ? undefined : `Invalid mask type: ${bad}`;
}

/** Salt's `list_tab` over a table's text. */
export function parseIncronTab(data: string): IncronTab {
  const ret: IncronTab = { crons: [], pre: [] };
  for (const line of pySplitlines(data)) {
    const c = pySplit(line);
    if (c.length > 3) ret.crons.push({ path: c[0]!, mask: c[1]!, cmd: c.slice(2).join(' ') });
    else ret.pre.push(line);
  }
  return ret;
}

/** Salt's `_render_tab`: the other lines first, then one line per job. */
export const renderIncronTab = (tab: IncronTab): string[] => [
  ...tab.pre.map((p) => `${p}\n`),
  ...tab.crons.map((c) => `${c.path} ${c.mask} ${c.cmd}\n`),
];

const sortedMasks = (mask: string): string => mask.split(',').sort().join(',');

/**
 * Salt's `set_job` over a parsed table: "present" (nothing to write), or the new job list and
 * whether it replaced a job of the same path and command sharing a mask.
 */
export function placeJob(
  tab: IncronTab,
  job: IncronJob,
): 'present' | { crons: IncronJob[]; updated: boolean } {
  const wanted = job.mask.split(',');
  let updated = false;
  const crons: IncronJob[] = [];
  for (const cron of tab.crons) {
    if (cron.path === job.path && cron.cmd === job.cmd) {
      if (sortedMasks(cron.mask) === sortedMasks(job.mask)) return 'present';
      const have = cron.mask.split(',');
      if (wanted.some((m) => have.includes(m))) {
        updated = true;
        continue;
      }
    }
    crons.push(cron);
  }
  crons.push(job);
  return { crons, updated };
}
