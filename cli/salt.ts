/**
 * `salt`: the entry point. `--version` answers before anything else is loaded; without it,
 * not even the version module is.
 */
import { blockingStdio } from './stdio.js';

blockingStdio();
if (process.argv.includes('--version') || process.argv.includes('-V')) {
  const { handleVersionFlag } = await import('./version.js');
  handleVersionFlag('salt', process.argv);
}
const { saltMain } = await import('./salt/main.js');
await saltMain();
