import { handleVersionFlag } from './version.js';

handleVersionFlag('salt-master', process.argv);
const { runDaemon } = await import('./run-daemon.js');
const { startMaster } = await import('../master/daemon.js');
await runDaemon(
  'master',
  'salt-master',
  'The Salt master daemon: publishes jobs and collects returns.',
  startMaster,
);
