import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from '../../tools/local-cluster.js';

describe('key management: pending, accept, delete, reject with salt-key', () => {
  const c = new Cluster({ master: { auto_accept: false } });
  beforeAll(async () => {
    await c.startMaster();
  });
  afterAll(() => c.stop());

  it('a new minion waits in pending until its key is accepted', async () => {
    const m = await c.startMinion('pend1', {}, false);
    await m.waitFor('has not accepted this minion key yet');
    const listed = await c.saltKey(['-L', '--out', 'json']);
    expect(JSON.parse(listed.stdout)).toMatchObject({ minions: [], minions_pre: ['pend1'] });
    const plain = await c.saltKey(['-l', 'pre']);
    expect(plain.stdout).toBe('Unaccepted Keys:\npend1\n');

    const acc = await c.saltKey(['-a', 'pend1', '-y']);
    expect(acc.stdout).toContain('Key for minion pend1 accepted.');
    await m.waitFor('salt-minion started', 20_000);
    const r = await c.saltJson(['pend1', 'test.ping']);
    expect(r.data).toEqual({ pend1: true });
  });

  it('fingerprints are printed as Salt computes them', async () => {
    const f = await c.saltKey(['-f', 'pend1']);
    expect(f.stdout).toMatch(/^Accepted Keys:\npend1: {2}([0-9a-f]{2}:){31}[0-9a-f]{2}\n$/);
  });

  it('a minion presenting a different key for an accepted id is denied, and the real one keeps working', async () => {
    const impostor = await c.startMinion('pend1-impostor', { id: 'pend1' }, false);
    await impostor.waitFor(/rejected|SALT_ERR_AUTH_REJECTED/, 20_000);
    const listed = JSON.parse((await c.saltKey(['-L', '--out', 'json'])).stdout) as Record<string, string[]>;
    expect(listed.minions_denied).toEqual(['pend1']);
    expect(listed.minions).toEqual(['pend1']);
    const r = await c.saltJson(['pend1', 'test.ping']);
    expect(r.data).toEqual({ pend1: true });
  });

  it('deleting a key removes the minion from targeting and asks for an AES rotation', async () => {
    const d = await c.saltKey(['-d', 'pend1', '-y']);
    expect(d.stdout).toContain('Key for minion pend1 deleted.');
    const r = await c.salt(['pend1', 'test.ping']);
    expect(r.code).toBe(2);
    expect(existsSync(join(c.root, 'etc/salt/pki/master/minions/pend1'))).toBe(false);
    await c.master!.waitFor('AES key rotated', 10_000);
  });

  it('an unmatched glob is reported, not an error', async () => {
    const r = await c.saltKey(['-a', 'nobody*', '-y']);
    expect(r.stdout).toBe("The key glob 'nobody*' does not match any unaccepted keys.\n");
    expect(r.code).toBe(0);
  });
});
