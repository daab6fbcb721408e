/**
 * The renderers tsalt ships (Salt's `salt/renderers/` built-ins it supports), by name. Each
 * imports its code on its first render: a process that registers the renderers plugin and never
 * renders (the minion's main process) does not hold the Jinja engine or the YAML parser.
 */
import type { RendererDef } from './types.js';

/** A renderer named `name` whose implementation `load` imports when it first renders. */
function lazyRenderer(name: string, load: () => Promise<RendererDef>): RendererDef {
  let def: Promise<RendererDef> | undefined;
  return {
    name,
    async render(input, context, step) {
      def ??= load();
      return (await def).render(input, context, step);
    },
  };
}

export const BUILTIN_RENDERERS: readonly RendererDef[] = [
  lazyRenderer('jinja', async () => (await import('./jinja/renderer.js')).jinjaRenderer),
  lazyRenderer('yaml', async () => (await import('./yaml/renderer.js')).yamlRenderer),
  lazyRenderer('json', async () => (await import('./json-renderer.js')).jsonRenderer),
  lazyRenderer('gpg', async () => (await import('./gpg-renderer.js')).gpgRenderer),
  lazyRenderer('js', async () => (await import('./js-renderer.js')).jsRenderer),
  lazyRenderer('toml', async () => (await import('./toml-renderer.js')).tomlRenderer),
  lazyRenderer('json5', async () => (await import('./json5-renderer.js')).json5Renderer),
  lazyRenderer('hjson', async () => (await import('./hjson-renderer.js')).hjsonRenderer),
  lazyRenderer('yamlex', async () => (await import('./yaml/yamlex.js')).yamlexRenderer),
  lazyRenderer('msgpack', async () => (await import('./msgpack-renderer.js')).msgpackRenderer),
  lazyRenderer('nacl', async () => (await import('./nacl-renderer.js')).naclRenderer),
  lazyRenderer('pass', async () => (await import('./pass-renderer.js')).passRenderer),
  lazyRenderer('dson', async () => (await import('./dson-renderer.js')).dsonRenderer),
  lazyRenderer('stateconf', async () => (await import('./stateconf/renderer.js')).stateconfRenderer),
];
