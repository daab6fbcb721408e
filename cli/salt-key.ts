/**
 * `salt-key`: list, accept, reject and delete minion keys, and show fingerprints, with
 * Salt's flags, prompts and output (salt-key/main.ts). bin/salt-key runs its single-file build
 * (salt-key/bundled.ts) where it can, this otherwise.
 */

import { blockingStdio } from './stdio.js';
import { handleVersionFlag } from './version.js';

blockingStdio();
handleVersionFlag('salt-key', process.argv);
const { keyMain } = await import('./salt-key/main.js');
await keyMain(process.argv);
