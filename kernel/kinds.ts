/**
 * Plugin kinds that plugins define for one another. The plugin that reads a kind declares it by
 * merging an entry into {@link PluginKinds}; any plugin then registers units of that kind with
 * `api.kinds.register(kind, def)`, and the declaring plugin reads them where it runs. So the
 * netapi declares its REST routes, the file server its backends, pillar its ext_pillars, and
 * the kernel knows none of them.
 *
 * @example
 * // in the plugin that reads the kind
 * declare module 'tsalt' {
 *   interface PluginKinds { 'acme.widgets': { name: string; size: number } }
 * }
 * // in any plugin's apply
 * api.kinds.register('acme.widgets', { name: 'big', size: 3 });
 */
import { SALT_ERR_REGISTRY_CLOSED, SALT_ERR_REGISTRY_DUPLICATE } from './errors.js';

/** Every plugin kind, by name: each entry is merged in by the plugin that reads the kind. */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging
export interface PluginKinds {}

/** A kind's name. */
export type KindName = keyof PluginKinds & string;

/** What plugins register units of the declared kinds with. */
export interface KindRegistrar {
  /** Registers `def` (its `name` unique within the kind); only while plugins are applied. */
  register<K extends KindName>(kind: K, def: PluginKinds[K]): void;
  /** The units registered under `kind`, in registration order. */
  all<K extends KindName>(kind: K): readonly PluginKinds[K][];
}

export interface ClosableKindRegistrar extends KindRegistrar {
  close(): void;
}

export function createKindRegistrar(): ClosableKindRegistrar {
  const kinds = new Map<string, Map<string, unknown>>();
  let closed = false;
  return {
    register(kind, def) {
      const name = String((def as { name?: unknown }).name);
      if (closed) throw new SALT_ERR_REGISTRY_CLOSED(kind, name);
      const units = kinds.get(kind) ?? new Map<string, unknown>();
      kinds.set(kind, units);
      if (units.has(name)) throw new SALT_ERR_REGISTRY_DUPLICATE(kind, name);
      units.set(name, def);
    },
    all(kind) {
      return [...(kinds.get(kind)?.values() ?? [])] as PluginKinds[typeof kind][];
    },
    close() {
      closed = true;
    },
  };
}
