import { describe, expect, it } from 'vitest';
import { SALT_ERR_REGISTRY_CLOSED, SALT_ERR_REGISTRY_DUPLICATE, SaltError } from './errors.js';
import { createRegistry } from './registry.js';

interface Thing {
  name: string;
  size?: number;
}

function caught(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected a throw');
}

describe('createRegistry', () => {
  it('registers, gets and lists items by name (names sorted)', () => {
    const r = createRegistry<Thing>('widget');
    expect(r.kind).toBe('widget');
    const b = { name: 'beta', size: 2 };
    r.register(b);
    r.register({ name: 'alpha' });
    r.register({ name: 'Gamma' });
    expect(r.get('beta')).toBe(b);
    expect(r.has('alpha')).toBe(true);
    expect(r.has('delta')).toBe(false);
    expect(r.get('delta')).toBeUndefined();
    expect(r.names()).toEqual(['Gamma', 'alpha', 'beta']);
  });

  it('matches names exactly', () => {
    const r = createRegistry<Thing>('widget');
    r.register({ name: 'local_cache' });
    expect(r.has('Local_Cache')).toBe(false);
    expect(r.has('local_cache ')).toBe(false);
  });

  it('returns a fresh array from names()', () => {
    const r = createRegistry<Thing>('widget');
    r.register({ name: 'a' });
    r.names().push('b');
    expect(r.names()).toEqual(['a']);
  });

  it('rejects a duplicate name with SALT_ERR_REGISTRY_DUPLICATE and keeps the first item', () => {
    const r = createRegistry<Thing>('returner');
    const first = { name: 'local_cache', size: 1 };
    r.register(first);
    const err = caught(() => r.register({ name: 'local_cache', size: 2 }));
    expect(err).toBeInstanceOf(SALT_ERR_REGISTRY_DUPLICATE);
    expect(err).toBeInstanceOf(SaltError);
    expect((err as SaltError).code).toBe('SALT_ERR_REGISTRY_DUPLICATE');
    expect((err as SaltError).message).toBe('returner "local_cache" is already registered');
    expect(r.get('local_cache')).toBe(first);
  });

  it('rejects any registration after close() with SALT_ERR_REGISTRY_CLOSED', () => {
    const r = createRegistry<Thing>('returner');
    r.register({ name: 'a' });
    r.close();
    const err = caught(() => r.register({ name: 'b' }));
    expect(err).toBeInstanceOf(SALT_ERR_REGISTRY_CLOSED);
    expect((err as SaltError).code).toBe('SALT_ERR_REGISTRY_CLOSED');
    expect((err as SaltError).message).toBe('cannot register returner "b" after the daemon is ready');
    expect(r.has('b')).toBe(false);
  });

  it('reports CLOSED rather than DUPLICATE for a taken name after close()', () => {
    const r = createRegistry<Thing>('returner');
    r.register({ name: 'a' });
    r.close();
    expect((caught(() => r.register({ name: 'a' })) as SaltError).code).toBe('SALT_ERR_REGISTRY_CLOSED');
  });

  it('still answers reads after close(), and close() is idempotent', () => {
    const r = createRegistry<Thing>('returner');
    r.register({ name: 'a' });
    r.close();
    r.close();
    expect(r.get('a')).toEqual({ name: 'a' });
    expect(r.names()).toEqual(['a']);
  });

  it('keeps registries independent', () => {
    const one = createRegistry<Thing>('returner');
    const two = createRegistry<Thing>('returner');
    one.register({ name: 'x' });
    one.close();
    two.register({ name: 'x' });
    expect(two.has('x')).toBe(true);
  });
});
