/**
 * `salt-run FUN [ARGS...]` (salt-run/main.ts). bin/salt-run runs its single-file build
 * (salt-run/bundled.ts) where it can, this otherwise.
 */

import { blockingStdio } from './stdio.js';
import { handleVersionFlag } from './version.js';

blockingStdio();
handleVersionFlag('salt-run', process.argv);
const { runMain } = await import('./salt-run/main.js');
await runMain(process.argv);
