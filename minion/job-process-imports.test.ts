/**
 * What a job process loads before its first `cmd.run` returns (issue 25: each ES module costs
 * Node 20's loader ~0.6-0.9 ms). The static import graph of `minion/job-process.ts` and
 * `modules/cmd.ts`, read from the sources (type-only imports and `import()` left out, as Node
 * loads neither up front), must hold no template engine: `cmd.run`'s `template=` loads it when
 * a command asks (it was ~100 modules and ~100 ms of CPU on every first job).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../tools/local-cluster.js';

/** `import ... from './x.js'` and `export ... from './x.js'`, not `import type`/`export type`. */
const STATIC =
  /^(?:import|export)\s+(?!type\b)[^;]*?\bfrom\s*(['"])(\.{1,2}\/[^'"]+)\1|^import\s*(['"])(\.{1,2}\/[^'"]+)\3/gm;

/** The repository files `file` loads when it loads, itself included. */
function staticClosure(entries: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const stack = [...entries];
  while (stack.length) {
    const file = stack.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    const text = readFileSync(join(REPO, file), 'utf8');
    for (const m of text.matchAll(STATIC)) {
      const spec = (m[2] ?? m[4]) as string;
      const target = relative(REPO, resolve(REPO, dirname(file), spec)).replace(/\.js$/, '.ts');
      if (existsSync(join(REPO, target))) stack.push(target);
    }
  }
  return seen;
}

describe("a job process's first cmd.run", () => {
  const loaded = staticClosure(['minion/job-process.ts', 'modules/cmd.ts']);

  it('reads the graph it checks (the job path and cmd.run are in it)', () => {
    expect(loaded.has('minion/execute-job.ts')).toBe(true);
    expect(loaded.has('modules/_cmd-run.ts')).toBe(true);
  });

  it('loads no template engine, renderer or file server until a command asks for one', () => {
    const heavy = [...loaded].filter((f) =>
      /^plugins\/(renderers|file-server|git)\/|^modules\/_(cmd-template|file-template|file-client)/.test(f),
    );
    expect(heavy).toEqual([]);
  });
});
