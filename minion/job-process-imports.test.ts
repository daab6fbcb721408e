/**
 * What a job process loads before its first `cmd.run` returns (issue 25: each ES module costs
 * Node 20's loader ~0.6-0.9 ms). The static import graph of `minion/job-process.ts` and
 * `modules/cmd.ts`, read from the sources (type-only imports and `import()` left out, as Node
 * loads neither up front), must hold no template engine: `cmd.run`'s `template=` loads it when
 * a command asks (it was ~100 modules and ~100 ms of CPU on every first job), nor pino, nor the
 * full `tsalt` door (its config, plugin and daemon code, 22 modules and ~10 ms): cmd.run's files
 * take the error catalogue and `defineModule` through the light doors `tsalt/errors` and
 * `tsalt/define`, nor the `tsalt/util` barrel (kernel/util.ts: 9 modules of targeting, YAML and
 * ids that cmd.run does not use): cmd.run's files import `pyStr`, `RetcodeResult` and the
 * argument binding from the files that define them, the same files the barrel re-exports.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../tools/local-cluster.js';
import { staticClosure } from '../tools/static-imports.js';

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

  it('loads no pino until a line is written (the job process logger is lazy)', () => {
    const pino = [...loaded].filter((f) =>
      /^import\s+(?!type\b)[^;]*from\s*'pino'/m.test(readFileSync(join(REPO, f), 'utf8')),
    );
    expect(pino).toEqual([]);
  });

  it("loads the kernel's full door (kernel/index.ts) only for a plugin that asks for it", () => {
    expect(loaded.has('kernel/errors.ts')).toBe(true);
    expect(loaded.has('kernel/index.ts')).toBe(false);
  });

  it('loads no `tsalt/util` barrel (kernel/util.ts): its helpers come from their own files', () => {
    expect(loaded.has('kernel/python/repr.ts')).toBe(true);
    expect(loaded.has('kernel/util.ts')).toBe(false);
  });

  it("loads the returners' code only for a job that names a returner", () => {
    expect(loaded.has('minion/job-returners.ts')).toBe(false);
    expect(loaded.has('kernel/loader/returner-loader.ts')).toBe(false);
  });
});
