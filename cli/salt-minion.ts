import { keepYoungGenerationSmall } from './small-heap.js';
import { handleVersionFlag } from './version.js';

handleVersionFlag('salt-minion', process.argv);
// a long-lived process of a few MiB of live data: see small-heap.ts
keepYoungGenerationSmall();
const { runDaemon } = await import('./run-daemon.js');
const { startMinion } = await import('../minion/daemon.js');
const { resolveMinionId } = await import('../kernel/config/index.js');
await runDaemon(
  'minion',
  'salt-minion',
  'The Salt minion daemon: runs the jobs its master publishes.',
  // a stop signal (a restart, an upgrade) leaves running jobs to their job processes: they return them
  async (config, boot, log) => {
    const minion = await startMinion(config, resolveMinionId(config), boot, log);
    return { stop: () => minion.stop({ leaveJobs: true }) };
  },
);
