import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TokenStore } from './auth/token-store.js';
import { StreamSessions, TOKEN_GONE } from './stream-sessions.js';

describe('StreamSessions', () => {
  it('ends the streams of a revoked, removed or expired token, and only those', async () => {
    let now = 1000;
    const tokens = new TokenStore(join(mkdtempSync(join(tmpdir(), 'streams-')), 'tokens'), () => now);
    const user = { name: 'u', eauth: 'file', groups: [] };
    const [a, b, c] = await Promise.all([
      tokens.create(user, 60),
      tokens.create(user, 60),
      tokens.create(user, 5),
    ]);
    const sessions = new StreamSessions(tokens, 60_000);
    const ended: string[] = [];
    const stream = (name: string) => (reason: string) => ended.push(`${name}: ${reason}`);
    sessions.add(a!.token, stream('a1'));
    const unregisterA2 = sessions.add(a!.token, stream('a2'));
    sessions.add(b!.token, stream('b'));
    sessions.add(c!.token, stream('c'));
    unregisterA2();
    expect(sessions.size).toBe(3);

    sessions.revoke(a!.token);
    expect(ended).toEqual([`a1: ${TOKEN_GONE}`]);
    await sessions.check();
    expect(ended).toHaveLength(1);

    now += 10; // c expired
    await sessions.check();
    expect(ended).toEqual([`a1: ${TOKEN_GONE}`, `c: ${TOKEN_GONE}`]);
    await tokens.remove(b!.token); // removed by someone else
    await sessions.check();
    expect(ended.at(-1)).toBe(`b: ${TOKEN_GONE}`);
    expect(sessions.size).toBe(0);
    sessions.stop();
  });
});
