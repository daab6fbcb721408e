/**
 * `salt` as the single CommonJS file bin/salt runs (built by tools/build-cli-bundle.ts into
 * dist/cli/bundle/salt.cjs, with a V8 code cache): the common command without Node's ES module
 * loader. `main` answers `false`, before it has opened anything, where the command needs the
 * ES modules (see `saltMain`); bin/salt then imports dist/cli/salt.js.
 */
import { blockingStdio } from '../stdio.js';
import { saltMain } from './main.js';

export function main(): Promise<boolean> {
  blockingStdio();
  return saltMain(true);
}
