import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PresenceTracker, presenceTopic, readPresence } from './presence.js';

const sub = (id: string) => Buffer.concat([Buffer.from([1]), Buffer.from(presenceTopic(id))]);
const unsub = (id: string) => Buffer.concat([Buffer.from([0]), Buffer.from(presenceTopic(id))]);

describe('PresenceTracker', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tsalt-presence-'));
  afterEach(() => rmSync(join(dir, 'presence.json'), { force: true }));

  it('tracks subscriptions and their cancellation, and ignores other topics', async () => {
    const t = new PresenceTracker(dir);
    t.onSubscription(sub('m1'));
    t.onSubscription(sub('m2'));
    t.onSubscription(Buffer.from([1])); // the "everything" subscription
    t.onSubscription(Buffer.concat([Buffer.from([1]), Buffer.from('other')]));
    t.onSubscription(unsub('m2'));
    await t.flush();
    expect(readPresence(dir)).toMatchObject({ present: ['m1'], tracked: ['m1', 'm2'] });
    t.close();
  });

  it('reads nothing when no snapshot was written', () => {
    expect(readPresence(join(dir, 'nowhere'))).toBeUndefined();
  });
});
