import { describe, expect, it } from 'vitest';
import { filterGrain, filterMinions, type MinionRow } from './minions-view.js';

const row = (id: string, grains: Record<string, unknown>): MinionRow => ({
  id,
  os: '',
  saltversion: '',
  up: true,
  key: 'accepted',
  grains,
});

describe('minions filter', () => {
  const rows = [
    row('web-01', { os: 'Debian', roles: ['web', 'edge'], dc: { name: 'eu-1' } }),
    row('db-01', { os: 'Rocky', roles: ['db'], dc: { name: 'us-2' } }),
  ];
  it('filters by id text, case-insensitively', () => {
    expect(filterMinions(rows, 'WEB').map((r) => r.id)).toEqual(['web-01']);
    expect(filterMinions(rows, '  ')).toBe(rows);
  });
  it('filters by grain:glob, list grains by any item, nested grains by path', () => {
    expect(filterMinions(rows, 'os:debian').map((r) => r.id)).toEqual(['web-01']);
    expect(filterMinions(rows, 'roles:ed*').map((r) => r.id)).toEqual(['web-01']);
    expect(filterMinions(rows, 'dc:name:us-*').map((r) => r.id)).toEqual(['db-01']);
    expect(filterMinions(rows, 'nosuch:x')).toEqual([]);
  });
});

describe('the grain a filter needs fetched', () => {
  it('is the top-level grain of grain:glob unless the list already has it', () => {
    expect(filterGrain('roles:web*')).toBe('roles');
    expect(filterGrain('dc:name:us-*')).toBe('dc');
    expect(filterGrain('os:Debian')).toBeUndefined();
    expect(filterGrain('saltversion:3006*')).toBeUndefined();
    expect(filterGrain('web-01')).toBeUndefined();
    expect(filterGrain(':x')).toBeUndefined();
  });
});
