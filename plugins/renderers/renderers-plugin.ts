/**
 * The renderers plugin: declares the `renderers` plugin kind (types.ts) and registers the
 * built-in renderers under it, so a third party's plugin adds its own with
 * `api.kinds.register('renderers', { name, render })` and the pillar, file server and states
 * read them all with {@link renderersFrom}.
 */
import { definePlugin, type KernelPlugin, type KindRegistrar } from '../../kernel/index.js';
import { BUILTIN_RENDERERS } from './builtins.js';
import { renderersOptions } from './options.js';
import type { RendererDef } from './types.js';

export function renderersPlugin(): KernelPlugin {
  return definePlugin({
    name: 'tsalt:renderers',
    options: renderersOptions,
    daemons: ['master', 'minion'],
    apply(api) {
      for (const r of BUILTIN_RENDERERS) api.kinds.register('renderers', r);
    },
  });
}

/** The renderers registered in `kinds` by name, the built-ins under any not registered. */
export function renderersFrom(kinds: Pick<KindRegistrar, 'all'>): ReadonlyMap<string, RendererDef> {
  const table = new Map(BUILTIN_RENDERERS.map((r) => [r.name, r]));
  for (const r of kinds.all('renderers')) table.set(r.name, r);
  return table;
}
