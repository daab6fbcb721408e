// The renderers plugin applied by the real kernel: the built-ins are registered under the
// 'renderers' kind, a third party's plugin adds its own, and renderPipeline uses it.
import { describe, expect, it } from 'vitest';
import { definePlugin } from '../../kernel/index.js';
import { createKernel } from '../../kernel/kernel.js';
import { silentLogger } from '../../kernel/log.js';
import { renderPipeline } from './pipeline.js';
import { renderersFrom, renderersPlugin } from './renderers-plugin.js';
import { NO_SALT_FUNCTIONS } from './salt-functions.js';

const shout = definePlugin({
  name: 'third-party:shout',
  apply(api) {
    api.kinds.register('renderers', { name: 'shout', render: async (input) => String(input).toUpperCase() });
  },
});

describe('renderers plugin', () => {
  it('registers the built-ins and lets another plugin add a renderer', async () => {
    const kernel = await createKernel({
      daemon: 'master',
      config: { id: 'm' },
      log: silentLogger(),
      builtins: [renderersPlugin()],
      plugins: [shout],
    });
    expect(kernel.kinds.all('renderers').map((r) => r.name)).toEqual([
      'jinja',
      'yaml',
      'json',
      'gpg',
      'js',
      'toml',
      'json5',
      'hjson',
      'yamlex',
      'msgpack',
      'nacl',
      'pass',
      'dson',
      'stateconf',
      'shout',
    ]);
    const context = { grains: {}, pillar: {}, opts: {}, salt: NO_SALT_FUNCTIONS, saltenv: 'base' };
    const out = await renderPipeline('#!jinja|shout\n{{ 1 + 1 }} x', {
      path: 'a.sls',
      context,
      renderers: renderersFrom(kernel.kinds),
    });
    expect(out).toBe('#!JINJA|SHOUT\n2 X');
  });
});
