/**
 * Plugin kinds that plugins define for one another: the plugin that reads a kind merges an entry
 * into {@link PluginKinds} (`declare module`), any plugin registers units of it with
 * `api.kinds.register(kind, def)`, and the reader gets them with `all(kind)` where it runs (the
 * netapi's REST routes, `plugins/netapi/route-kind.ts`). The kernel names none of them.
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
