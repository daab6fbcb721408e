import { describe, expect, it } from 'vitest';
import { countWith, minionId, parseSpread, spreadGrains } from './grains-spread.js';

describe('grains spread', () => {
  it('parses key=v1,v2 options', () => {
    expect(parseSpread(['role=web,db', 'os.tier = a , b,c'])).toEqual([
      { key: 'role', values: ['web', 'db'] },
      { key: 'os.tier', values: ['a', 'b', 'c'] },
    ]);
  });

  it('refuses a spread without values', () => {
    expect(() => parseSpread(['role'])).toThrow(/key=value1/);
    expect(() => parseSpread(['=a,b'])).toThrow(/key=value1/);
    expect(() => parseSpread(['role='])).toThrow(/key=value1/);
  });

  it('gives minion i the value i modulo the number of values, nesting dotted keys', () => {
    const s = parseSpread(['role=web,db', 'dc.name=x,y,z']);
    expect(spreadGrains(s, 0)).toEqual({ role: 'web', dc: { name: 'x' } });
    expect(spreadGrains(s, 1)).toEqual({ role: 'db', dc: { name: 'y' } });
    expect(spreadGrains(s, 5)).toEqual({ role: 'db', dc: { name: 'z' } });
  });

  it('counts the minions a grain target addresses', () => {
    const s = parseSpread(['role=web,db,db']);
    expect(countWith(s, 10, 'role', 'web')).toBe(4);
    expect(countWith(s, 10, 'role', 'db')).toBe(6);
    expect(countWith(s, 10, 'role', 'other')).toBe(0);
  });

  it('pads ids to the width of the swarm so that they sort', () => {
    expect(minionId('swarm-', 7, 1000)).toBe('swarm-007');
    expect(minionId('m', 0, 1)).toBe('m0');
    expect(minionId('m', 42, 50)).toBe('m42');
  });
});
