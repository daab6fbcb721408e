/**
 * The built-in outputters, each loaded only when asked for: `salt` prints with one or two of
 * them, and loading all nine (with their YAML and pprint helpers) is a measurable part of a
 * short CLI run. registry.ts holds the same set, loaded at once, for callers that need them
 * synchronously.
 */
import type { Outputter } from './types.js';

const LOADERS: Readonly<Record<string, () => Promise<Outputter>>> = {
  nested: async () => (await import('./nested.js')).nestedOutputter,
  json: async () => (await import('./json.js')).jsonOutputter,
  yaml: async () => (await import('./yaml.js')).yamlOutputter,
  txt: async () => (await import('./txt.js')).txtOutputter,
  raw: async () => (await import('./raw.js')).rawOutputter,
  newline_values_only: async () => (await import('./newline-values-only.js')).newlineValuesOnlyOutputter,
  pprint: async () => (await import('./pprint.js')).pprintOutputter,
  quiet: async () => (await import('./quiet.js')).quietOutputter,
  key: async () => (await import('./key-list.js')).keyOutputter,
  highstate: async () => (await import('./highstate.js')).highstateOutputter,
};

/** The built-in outputter names, sorted. */
export const BUILTIN_OUTPUTTERS: readonly string[] = Object.keys(LOADERS).sort();

/** The built-in outputter `name`, loaded; undefined when there is none by that name. */
export function loadBuiltinOutputter(name: string): Promise<Outputter | undefined> {
  const load = Object.hasOwn(LOADERS, name) ? LOADERS[name] : undefined;
  return load ? load() : Promise.resolve(undefined);
}
