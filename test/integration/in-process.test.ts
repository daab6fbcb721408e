import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from '../../tools/local-cluster.js';

describe('a minion with multiprocessing: false runs jobs in its own process', () => {
  const c = new Cluster({ minion: { multiprocessing: false } });
  beforeAll(async () => {
    await c.startMaster();
    await c.startMinion('solo');
  });
  afterAll(() => c.stop());

  it('runs jobs and turns a throwing function into an error return', async () => {
    expect((await c.saltJson(['solo', 'test.ping'])).data).toEqual({ solo: true });
    const r = await c.saltJson(['solo', 'test.exception', 'boom']);
    expect(String(r.data.solo)).toContain('boom');
    expect(r.code).toBe(1);
    expect((await c.saltJson(['solo', 'test.echo', 'still here'])).data).toEqual({ solo: 'still here' });
  });
});
