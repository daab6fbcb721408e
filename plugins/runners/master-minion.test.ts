import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { masterMinionId } from './master-minion.js';

describe("the master's own minion id (Salt's MasterMinion)", () => {
  it('is <hostname>_master without a master id, and the id alone with one', () => {
    expect(masterMinionId({})).toBe(`${hostname()}_master`);
    expect(masterMinionId({ id: null })).toBe(`${hostname()}_master`);
    expect(masterMinionId({ id: 'foo' })).toBe('foo');
  });
});
