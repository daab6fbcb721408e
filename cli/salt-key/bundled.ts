/**
 * `salt-key` as the single CommonJS file bin/salt-key runs (dist/cli/bundle/salt-key.cjs, built
 * by tools/build-cli-bundle.ts, run from a V8 code cache by bin/run-bundle.cjs): the command
 * without Node's ES module loader. It never hands over (`true`).
 */
import { blockingStdio } from '../stdio.js';
import { keyMain } from './main.js';

export async function main(): Promise<boolean> {
  blockingStdio();
  await keyMain(process.argv);
  return true;
}
