/**
 * V8 settings for a small, long-lived daemon process (the minion's main process, issue 25).
 *
 * V8 grows its young generation up to 2 × 16 MiB under allocation and keeps it: an idle minion
 * held 16 MiB of mostly empty new space, and after 2,000 jobs its RSS was ~105 MiB where it
 * is ~80 MiB with the young generation kept at its first size (two semi-spaces of 1 MiB),
 * and its CPU per job did not grow (alternating runs, 1,500 test.ping each: 390-450 µs both).
 * The process is started by a `node` command line it does not choose (a `bin/` stub, a service
 * unit), so the setting is made at run time, before the first allocation-heavy work: V8 reads
 * the growth factor each time it considers growing the young generation.
 */
import { setFlagsFromString } from 'node:v8';

/** Keeps V8's young generation at its initial size from now on in this process. */
export function keepYoungGenerationSmall(): void {
  setFlagsFromString('--semi-space-growth-factor=1');
}
