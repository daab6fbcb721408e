/**
 * The file a minion forks as a job process: the single-module build of job-process.js
 * (dist/minion/bundle/job-process.js, tools/build-process-bundle.ts, issue 25) while it is at
 * least as new as job-process.js, else job-process.js itself (a `tsc` without the bundle step,
 * or `TSALT_PROCESS_BUNDLE=0`). Both run the same code.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** `dir`: the folder of job-process.js (this file's, in dist/minion). */
export function jobProcessEntry(
  env: NodeJS.ProcessEnv = process.env,
  dir: string = fileURLToPath(new URL('.', import.meta.url)),
): string {
  const plain = join(dir, 'job-process.js');
  const bundle = join(dir, 'bundle', 'job-process.js');
  if (env.TSALT_PROCESS_BUNDLE === '0') return plain;
  try {
    return statSync(bundle).mtimeMs >= statSync(plain).mtimeMs ? bundle : plain;
  } catch {
    return plain;
  }
}
