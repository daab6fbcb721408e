/**
 * Typed registries of named capabilities (returners, request commands, processes, ...). A
 * duplicate name or a registration after the daemon is ready is an error with a code.
 */
import { SALT_ERR_REGISTRY_CLOSED, SALT_ERR_REGISTRY_DUPLICATE } from './errors.js';

export interface Registry<T> {
  readonly kind: string;
  register(def: T): void;
  get(name: string): T | undefined;
  has(name: string): boolean;
  names(): string[];
}

export interface ClosableRegistry<T> extends Registry<T> {
  close(): void;
}

/** Creates a registry of `T`s under the name `keyOf` gives each (default: its `name`). */
export function createRegistry<T extends { name: string }>(kind: string): ClosableRegistry<T>;
export function createRegistry<T>(kind: string, keyOf: (def: T) => string): ClosableRegistry<T>;
export function createRegistry<T>(
  kind: string,
  keyOf: (def: T) => string = (def) => (def as { name: string }).name,
): ClosableRegistry<T> {
  const items = new Map<string, T>();
  let closed = false;
  return {
    kind,
    register(def: T) {
      const name = keyOf(def);
      if (closed) throw new SALT_ERR_REGISTRY_CLOSED(kind, name);
      if (items.has(name)) throw new SALT_ERR_REGISTRY_DUPLICATE(kind, name);
      items.set(name, def);
    },
    get: (name) => items.get(name),
    has: (name) => items.has(name),
    names: () => [...items.keys()].sort(),
    close() {
      closed = true;
    },
  };
}
