/**
 * The gem module and states through a real master and minion: an SLS that installs one
 * throwaway gem at a version, removes another and adds a gem source, applied in test mode,
 * for real and again (nothing left to do). The minion inherits the fixture's environment (a
 * temp GEM_HOME and gemrc, a local file:// source: tools/gem-fixture.ts). Expected comments
 * are Salt 3006.18's (tools/compare-gem.ts).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from '../../tools/local-cluster.js';
import { GEM_MISSING, useGemFixture } from '../support/gem-env.js';

const A = 'tsalt-gemfix-a';
const B = 'tsalt-gemfix-b';
type Entry = { result: boolean | null; comment: string; changes: Record<string, unknown> };

describe.skipIf(GEM_MISSING)(
  `gem states through real daemons${GEM_MISSING ? ` (skipped: ${GEM_MISSING})` : ''}`,
  () => {
    const use = useGemFixture();
    const master: Record<string, unknown> = {};
    const c = new Cluster({ master });
    const srv = join(c.root, 'srv', 'salt');

    beforeAll(async () => {
      mkdirSync(srv, { recursive: true });
      const sls = [
        `${A}:`,
        '  gem.installed:',
        '    - version: 1.0.0',
        `${B}:`,
        '  gem.removed: []',
        'extra-source:',
        '  gem.sources_add:',
        `    - name: ${use.fx.source2}`,
        '',
      ];
      writeFileSync(join(srv, 'gems.sls'), sls.join('\n'));
      master.file_roots = { base: [srv] };
      await c.startMaster();
      await c.startMinion('m1');
    }, 120_000);
    afterAll(() => c.stop());

    const apply = async (...extra: string[]) => {
      const r = await c.saltJson(['m1', 'state.apply', 'gems', ...extra, '-t', '120']);
      const ret = r.data.m1 as Record<string, Entry>;
      const pick = (id: string, fn: string, name = id) => ret[`gem_|-${id}_|-${name}_|-${fn}`];
      return {
        a: pick(A, 'installed'),
        b: pick(B, 'removed'),
        src: pick('extra-source', 'sources_add', use.fx.source2),
      };
    };

    it('applies in test mode, for real, then finds nothing to do', async () => {
      expect(await apply('test=True')).toMatchObject({
        a: { result: null, comment: `The gem ${A} would have been installed` },
        b: { result: true, comment: 'Gem is not installed.' },
        src: { result: null, comment: `The gem source ${use.fx.source2} would have been added.` },
      });
      expect(await apply()).toMatchObject({
        a: { result: true, comment: 'Gem was successfully installed', changes: { [A]: 'Installed' } },
        src: {
          result: true,
          comment: 'Gem source was successfully added.',
          changes: { [use.fx.source2]: 'Installed' },
        },
      });
      expect(await apply()).toMatchObject({
        a: { result: true, comment: 'Gem is already installed.', changes: {} },
        src: { result: true, comment: 'Gem source is already added.', changes: {} },
      });
      const listed = await c.saltJson(['m1', 'gem.list', 'tsalt-gemfix']);
      expect(listed.data.m1).toEqual({ [A]: ['1.0.0'] });
      const sources = await c.saltJson(['m1', 'gem.sources_list']);
      expect(sources.data.m1).toEqual([use.fx.source, use.fx.source2]);
    }, 240_000);
  },
);
