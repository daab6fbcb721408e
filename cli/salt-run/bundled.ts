/**
 * `salt-run` as the single CommonJS file bin/salt-run runs (dist/cli/bundle/salt-run.cjs, built
 * by tools/build-cli-bundle.ts, run from a V8 code cache by bin/run-bundle.cjs): the command
 * without Node's ES module loader, but for the outputters (extension ones may be loaded) and
 * the highstate options, which stay ES modules. It never hands over (`true`).
 */
import { blockingStdio } from '../stdio.js';
import { runMain } from './main.js';

export async function main(): Promise<boolean> {
  blockingStdio();
  await runMain(process.argv);
  return true;
}
