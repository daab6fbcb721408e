/**
 * `salt`: the entry point. `--version` answers before anything else is loaded.
 */
import { handleVersionFlag } from './version.js';

handleVersionFlag('salt', process.argv);
await import('./salt/main.js');
