/**
 * What a pillar compile loads before it has a file to render (issue 25): `salt-call --local`
 * compiles the minion's pillar on every run, and with no top file it renders nothing. The
 * static import graph of the local compile (minion/local-pillar.ts, the pillar's `salt[...]`
 * functions) must hold no renderer (Jinja, YAML, gpg, ...) and no git client: they load with
 * the first file to render and the first `git` ext_pillar (~50 modules, ~90 ms of CPU a run).
 */
import { describe, expect, it } from 'vitest';
import { staticClosure } from '../../tools/static-imports.js';

/** Renderer pipeline, template engines, the git client and git_pillar's checkout code. */
const HEAVY =
  /^plugins\/renderers\/(index|pipeline|builtins|jinja\/|yaml\/)|^plugins\/(git|pillar\/git-pillar)\//;

describe('a pillar compile with nothing to render', () => {
  const loaded = staticClosure(['minion/local-pillar.ts', 'plugins/pillar/pillar-functions.ts']);

  it('reads the graph it checks (the compile and its top-file reader are in it)', () => {
    expect(loaded.has('plugins/pillar/compile.ts')).toBe(true);
    expect(loaded.has('plugins/pillar/top.ts')).toBe(true);
  });

  it('loads no renderer pipeline, template engine or git client', () => {
    const heavy = [...loaded].filter((f) => HEAVY.test(f));
    expect(heavy).toEqual([]);
  });
});
