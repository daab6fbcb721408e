/**
 * Typed registries of named capabilities (returners, job caches, ...). A duplicate name or a
 * registration after the daemon is ready is an error.
 */
import { SALT_ERR_REGISTRY_CLOSED, SALT_ERR_REGISTRY_DUPLICATE } from './errors.js';

export interface Registry<T extends { name: string }> {
  readonly kind: string;
  register(def: T): void;
  get(name: string): T | undefined;
  has(name: string): boolean;
  names(): string[];
}

export interface ClosableRegistry<T extends { name: string }> extends Registry<T> {
  close(): void;
}

export function createRegistry<T extends { name: string }>(kind: string): ClosableRegistry<T> {
  const items = new Map<string, T>();
  let closed = false;
  return {
    kind,
    register(def: T) {
      if (closed) throw new SALT_ERR_REGISTRY_CLOSED(kind, def.name);
      if (items.has(def.name)) throw new SALT_ERR_REGISTRY_DUPLICATE(kind, def.name);
      items.set(def.name, def);
    },
    get: (name) => items.get(name),
    has: (name) => items.has(name),
    names: () => [...items.keys()].sort(),
    close() {
      closed = true;
    },
  };
}
