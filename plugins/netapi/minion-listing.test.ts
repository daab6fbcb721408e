import { describe, expect, it } from 'vitest';
import { listingQuery, MAX_PAGE, pageOf, pickGrains } from './minion-listing.js';

describe('the light GET /minions listing', () => {
  it('is off without its parameters: the full salt-api answer', () => {
    expect(listingQuery({})).toBeUndefined();
    expect(listingQuery(undefined)).toBeUndefined();
    expect(listingQuery({ other: 'x' })).toBeUndefined();
  });

  it('reads grains, offset and limit', () => {
    expect(listingQuery({ grains: 'os, osrelease,,saltversion' })).toEqual({
      grains: ['os', 'osrelease', 'saltversion'],
      offset: 0,
      limit: undefined,
    });
    expect(listingQuery({ offset: '20', limit: '10' })).toEqual({ grains: undefined, offset: 20, limit: 10 });
  });

  it('refuses a bad parameter with NETAPI_ERR_BAD_QUERY', () => {
    const bad = [
      { grains: '' },
      { grains: ' , ' },
      { grains: ['os', 'id'] },
      { offset: '-1' },
      { offset: '1.5' },
      { limit: 'ten' },
      { limit: String(MAX_PAGE + 1) },
    ];
    for (const q of bad)
      expect(() => listingQuery(q), JSON.stringify(q)).toThrow(
        expect.objectContaining({ code: 'NETAPI_ERR_BAD_QUERY' }),
      );
    expect(() => listingQuery({ limit: 'ten' })).toThrow(
      '"limit" must be a whole number from 0 to 10000, not "ten"',
    );
  });

  it('pages the sorted ids and keeps only the asked grains, in the asked order', () => {
    const ids = ['a', 'b', 'c', 'd', 'e'];
    expect(pageOf(ids, { grains: undefined, offset: 1, limit: 2 })).toEqual(['b', 'c']);
    expect(pageOf(ids, { grains: undefined, offset: 4, limit: undefined })).toEqual(['e']);
    expect(pageOf(ids, { grains: undefined, offset: 9, limit: 2 })).toEqual([]);
    const g = { id: 'a', os: 'Debian', osrelease: '12', kernel: 'Linux' };
    expect(Object.keys(pickGrains(g, ['osrelease', 'os', 'missing']))).toEqual(['osrelease', 'os']);
    expect(pickGrains(g, undefined)).toBe(g);
  });
});
