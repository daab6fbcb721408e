/**
 * The static import graph of repository files, read from their TypeScript sources: what Node
 * loads up front when one of them loads (type-only imports and `import()` are left out, as Node
 * loads neither then). Tests use it to keep heavy code off start-up paths (issue 25: each ES
 * module costs Node 20's loader ~0.6-0.9 ms of CPU).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { graphClosure } from './graph-closure.js';
import { REPO } from './local-cluster.js';

/** `import ... from './x.js'` and `export ... from './x.js'`, not `import type`/`export type`. */
const STATIC =
  /^(?:import|export)\s+(?!type\b)[^;]*?\bfrom\s*(['"])(\.{1,2}\/[^'"]+)\1|^import\s*(['"])(\.{1,2}\/[^'"]+)\3/gm;

/** The repository files (paths relative to the repository, `.ts`) that `entries` load, themselves included. */
export function staticClosure(entries: readonly string[]): Set<string> {
  return graphClosure(entries, (file) => {
    const targets: string[] = [];
    for (const m of readFileSync(join(REPO, file), 'utf8').matchAll(STATIC)) {
      const spec = (m[2] ?? m[4]) as string;
      const target = relative(REPO, resolve(REPO, dirname(file), spec)).replace(/\.js$/, '.ts');
      if (existsSync(join(REPO, target))) targets.push(target);
    }
    return targets;
  });
}
